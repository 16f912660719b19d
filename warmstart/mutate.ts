// Programmatic edits of an environment module, the warm start's parent → child pairs (ACCEL-style edits of a level,
// here of code): a child renames the spec after a word of the grounding document, moves one or two integer knobs
// (counts, ranges, tries) to another value, may fill a word list with the document's words, and may reword its
// prose (reword.ts). Pure and seeded; whether a child still validates is the sandbox's call (the warm start keeps
// only those that do).
import { documentWords, knobsOf, replaceSpans, specNameOf, type Knob } from '../actors/designer/index.js';
import { reword } from './reword.js';

export interface Mutation {
  code: string;
  /** What changed, for logs and tests: `name door-code→harbour-code`, `CODES 4→6`, `COLOURS ← document`. */
  edits: string[];
}

/** Fisher–Yates with the caller's generator. */
export function shuffled<T>(xs: readonly T[], random: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Another value for an integer knob: between half and twice the old one (at least 1), never the same. */
export function nudge(value: number, random: () => number): number {
  const lo = Math.max(1, Math.floor(value / 2)), hi = Math.max(value * 2, value + 2);
  for (;;) {
    const v = lo + Math.floor(random() * (hi - lo + 1));
    if (v !== value) return v;
  }
}

/**
 * A child of `code` grounded on `doc`: always a new name (a document word and the parent name's last part), one or two
 * integer knobs moved, with probability 0.7 a word list refilled from the document, and with probability `rewordShare`
 * a few words of its prose replaced by synonyms. Null when the module has no
 * spec name or no knob, or the document has too few words for the name.
 */
export function mutate(code: string, doc: string, random: () => number, rewordShare = 0.8): Mutation | null {
  const name = specNameOf(code);
  const knobs = knobsOf(code);
  const words = shuffled(documentWords(doc), random);
  if (!name || knobs.length === 0 || words.length === 0) return null;
  const tail = name.name.split('-').pop()!;
  const head = words.find((w) => w !== tail && !name.name.startsWith(`${w}-`)) ?? words[0]!;
  const childName = `${head}-${tail}`.slice(0, 64);
  const spans: { start: number; end: number; text: string }[] = [{ start: name.start, end: name.end, text: childName }];
  const edits = [`name ${name.name}→${childName}`];
  const ints = shuffled(knobs.filter((k): k is Extract<Knob, { kind: 'int' }> => k.kind === 'int'), random);
  for (const k of ints.slice(0, random() < 0.5 ? 1 : 2)) {
    const v = nudge(k.value, random);
    spans.push({ start: k.start, end: k.end, text: String(v) });
    edits.push(`${k.name} ${k.value}→${v}`);
  }
  const lists = knobs.filter((k): k is Extract<Knob, { kind: 'words' }> => k.kind === 'words');
  const pool = words.filter((w) => w !== head);
  for (const k of lists) {
    // A long list takes as many document words as there are (at least 4): the child's world is the document's.
    const want = Math.min(k.value.length, Math.max(4, pool.length));
    if (random() >= 0.7 || pool.length < want) continue;
    const fill = pool.splice(0, want);
    spans.push({ start: k.start, end: k.end, text: `[${fill.map((w) => `'${w}'`).join(', ')}]` });
    edits.push(`${k.name} ← document`);
  }
  const child = replaceSpans(code, spans);
  const worded = random() < rewordShare ? reword(child, random) : null;
  return worded ? { code: worded.code, edits: [...edits, ...worded.edits] } : { code: child, edits };
}
