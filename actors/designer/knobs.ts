// The knobs of an environment module: its top-level `const NAME = <integer>;` and `const NAME = ['word', ...];` lines,
// and its spec name. The designer edits a parent through them (a child changes ranges, counts and word lists); the
// warm start builds its parent → child examples from the same reading. Pure: text in, positions out.

export interface IntKnob {
  kind: 'int';
  name: string;
  value: number;
  /** Character span of the value in the code. */
  start: number;
  end: number;
}

export interface WordsKnob {
  kind: 'words';
  name: string;
  value: string[];
  start: number;
  end: number;
}

export type Knob = IntKnob | WordsKnob;

const INT_LINE = /^const ([A-Z][A-Z0-9_]*) = (\d{1,6});/gm;
const WORDS_LINE = /^const ([A-Z][A-Z0-9_]*) = (\[\s*'[a-z]+'(?:\s*,\s*'[a-z]+')*\s*\]);/gm;
const SPEC_NAME = /^ {2}name: '([a-z0-9-]{1,64})',/m;

/** The module's knobs in source order (only whole-line declarations at the top level: one value, no expression). */
export function knobsOf(code: string): Knob[] {
  const out: Knob[] = [];
  for (const m of code.matchAll(INT_LINE)) {
    const start = m.index! + m[0].indexOf('= ') + 2;
    out.push({ kind: 'int', name: m[1]!, value: Number(m[2]), start, end: start + m[2]!.length });
  }
  for (const m of code.matchAll(WORDS_LINE)) {
    const start = m.index! + m[0].indexOf('= ') + 2;
    out.push({ kind: 'words', name: m[1]!, value: [...m[2]!.matchAll(/'([a-z]+)'/g)].map((w) => w[1]!), start, end: start + m[2]!.length });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The spec's name and its span, when written as the one-line `  name: '...',` the library uses. */
export function specNameOf(code: string): { name: string; start: number; end: number } | null {
  const m = SPEC_NAME.exec(code);
  if (!m) return null;
  const start = m.index + m[0].indexOf("'") + 1;
  return { name: m[1]!, start, end: start + m[1]!.length };
}

/** A module the designer can edit: it has at least one knob and a one-line spec name. */
export function isEditable(code: string): boolean {
  return specNameOf(code) !== null && knobsOf(code).length > 0;
}

/** Replaces spans of the code (non-overlapping), right to left so earlier positions stay valid. */
export function replaceSpans(code: string, edits: readonly { start: number; end: number; text: string }[]): string {
  let out = code;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The module's integer knobs (counts, ranges, tries) in source order: what a setting of it is made of. */
export function intKnobsOf(code: string): IntKnob[] {
  return knobsOf(code).filter((k): k is IntKnob => k.kind === 'int');
}

/** The module at other values of its integer knobs (names it does not have are ignored; everything else unchanged). */
export function withKnobs(code: string, values: Readonly<Record<string, number>>): string {
  return replaceSpans(code, intKnobsOf(code).filter((k) => k.name in values).map((k) => ({ start: k.start, end: k.end, text: String(values[k.name]) })));
}
