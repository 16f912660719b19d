// Shared by the chunking tests: the chunk spec they cut with and a check that chunks stay within chunkChars,
// overlap the previous one, move forward and leave no gap up to the end of the text.
import type { Test } from 'tap';
import { chunkSpans, type ChunkSpec } from '../../corpus/index.js';

export const SPEC: ChunkSpec = { chunkChars: 500, chunkOverlap: 80, minChars: 100 };

export function checkCover(t: Test, text: string, spec: ChunkSpec): void {
  const spans = chunkSpans(text, spec);
  let covered = 0;
  for (const [i, [s, e]] of spans.entries()) {
    t.ok(e - s <= spec.chunkChars + (i === spans.length - 1 ? spec.minChars : 0), `chunk ${i} length ${e - s}`);
    t.ok(s <= covered || text.slice(covered, s).trim() === '', `chunk ${i} leaves no gap`);
    if (i > 0) t.ok(s < spans[i - 1]![1] || spec.chunkOverlap === 0, `chunk ${i} overlaps the previous one`);
    t.ok(s > (spans[i - 1]?.[0] ?? -1), 'starts move forward');
    covered = Math.max(covered, e);
  }
  t.equal(text.slice(covered).trim(), '', 'the end is covered');
}
