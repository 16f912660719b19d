// Designs as knob edits (loop.designer.output 'knobs'): the designer is shown its parent as a sheet of knobs, one
// `NAME = value` line each (the spec name, integer knobs, word lists), and writes back only the lines it changes.
// The child module is the parent's code with those values spliced in (knobs.ts), validated and archived as a whole
// module as before. A ~730-token module becomes a few dozen tokens, and every accepted child differs from its parent
// in its settings, the thing the claim of the loop is about (issue 23). Pure: text in, code or a reason out.
import { knobsOf, replaceSpans, specNameOf, type Knob } from './knobs.js';

/** The spec name's line on a sheet. */
export const NAME_KNOB = 'name';
/** How much of the parent's description a sheet shows, so the designer knows what the knobs set. */
const DESCRIPTION_CHARS = 160;
const LINE = /^([A-Za-z][A-Za-z0-9_]*) = (.*)$/;
const SPEC_NAME = /^[a-z0-9-]{1,64}$/;
/** The spec's one-line description as written, template placeholders such as `${TOP}` included: it says what a knob sets. */
const DESCRIPTION = /^ {2}description: (['`"])(.*)\1,\s*$/m;
const MAX_INT = 999_999;
const MAX_WORDS = 32;

/** One knob as a sheet line: `TOP = 64`, `COLOURS = red, blue, green`. */
function knobLine(k: Knob): string {
  return `${k.name} = ${k.kind === 'int' ? k.value : k.value.join(', ')}`;
}

/**
 * The parent as the designer sees it: its name and one-line description (as written, so `${TOP}` shows what TOP
 * sets), then a line per knob. Only modules with a one-line spec name and at least one knob have one (isEditable).
 */
export function knobSheet(code: string): string | null {
  const name = specNameOf(code);
  const knobs = knobsOf(code);
  if (!name || knobs.length === 0) return null;
  const description = DESCRIPTION.exec(code)?.[2] ?? '';
  const d = description.length > DESCRIPTION_CHARS ? `${description.slice(0, DESCRIPTION_CHARS - 3)}...` : description;
  return [`${name.name}: ${d}`, `${NAME_KNOB} = ${name.name}`, ...knobs.map(knobLine)].join('\n');
}

/** The changed lines of `child` against `parent` (both modules with the same knobs): what a designer writes. */
export function knobEditText(parent: string, child: string): string {
  const was = new Map(knobsOf(parent).map((k) => [k.name, knobLine(k)]));
  const lines: string[] = [];
  const pn = specNameOf(parent)?.name, cn = specNameOf(child)?.name;
  if (cn !== undefined && cn !== pn) lines.push(`${NAME_KNOB} = ${cn}`);
  for (const k of knobsOf(child)) if (was.get(k.name) !== knobLine(k)) lines.push(knobLine(k));
  return lines.join('\n');
}

export type KnobEdit = { ok: true; code: string; changed: string[] } | { ok: false; reason: string };

/**
 * The child of `parent` that `text` asks for: each non-empty line `NAME = value` sets the spec name (`name`), an
 * integer knob (0..999999) or a word list (comma-separated lowercase words); knobs not named keep the parent's
 * values. A line that is not of that form, names no knob of the parent, repeats a knob or gives a bad value is
 * refused, naming the line; so is an edit that changes nothing.
 */
export function applyKnobEdit(parent: string, text: string): KnobEdit {
  const name = specNameOf(parent);
  if (!name) return { ok: false, reason: 'the parent has no one-line spec name to edit' };
  const knobs = new Map(knobsOf(parent).map((k) => [k.name, k]));
  const spans: { start: number; end: number; text: string }[] = [];
  const changed: string[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const at = `line ${i + 1} (${JSON.stringify(raw.slice(0, 80))})`;
    const m = LINE.exec(raw);
    if (!m) return { ok: false, reason: `${at}: not a \`NAME = value\` line` };
    const [, key, value] = m as unknown as [string, string, string];
    if (seen.has(key)) return { ok: false, reason: `${at}: ${key} is set twice` };
    seen.add(key);
    if (key === NAME_KNOB) {
      if (!SPEC_NAME.test(value)) return { ok: false, reason: `${at}: the name must be 1-64 of a-z, 0-9 and -` };
      if (value !== name.name) (spans.push({ start: name.start, end: name.end, text: value }), changed.push(key));
      continue;
    }
    const k = knobs.get(key);
    if (!k) return { ok: false, reason: `${at}: the parent has no knob ${key} (it has ${[NAME_KNOB, ...knobs.keys()].join(', ')})` };
    if (k.kind === 'int') {
      if (!/^\d{1,6}$/.test(value) || Number(value) > MAX_INT) return { ok: false, reason: `${at}: ${key} must be an integer in 0..${MAX_INT}` };
      if (Number(value) !== k.value) (spans.push({ start: k.start, end: k.end, text: String(Number(value)) }), changed.push(key));
      continue;
    }
    const words = value.split(',').map((w) => w.trim());
    if (words.length > MAX_WORDS || !words.every((w) => /^[a-z]{1,32}$/.test(w))) return { ok: false, reason: `${at}: ${key} must be 1-${MAX_WORDS} lowercase words, comma-separated` };
    if (words.join(',') !== k.value.join(',')) (spans.push({ start: k.start, end: k.end, text: `[${words.map((w) => `'${w}'`).join(', ')}]` }), changed.push(key));
  }
  if (changed.length === 0) return { ok: false, reason: 'the edit changes nothing: name a knob with a new value' };
  return { ok: true, code: replaceSpans(parent, spans), changed };
}
