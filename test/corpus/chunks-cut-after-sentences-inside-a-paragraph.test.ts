// Inside a paragraph longer than chunkChars, chunks end after a sentence and their overlap starts at one.
import t from 'tap';
import { chunkText } from '../../corpus/index.js';
import { prose } from './helpers.js';
import { SPEC, checkCover } from './chunk-cover.js';

t.test('cuts after sentences inside a long paragraph, overlap starts at a sentence', async (t) => {
  const text = prose('s', 3000);
  const chunks = chunkText(text, SPEC);
  t.ok(chunks.length >= 6);
  for (const c of chunks) {
    t.match(c, /^Sentence \d+ /, 'starts at a sentence');
    t.match(c, /plain\.$/, 'ends at a sentence end');
  }
  for (let i = 1; i < chunks.length; i++) {
    const first = chunks[i]!.slice(0, 30);
    t.ok(chunks[i - 1]!.includes(first), `chunk ${i} repeats the end of chunk ${i - 1}`);
  }
  checkCover(t, text, SPEC);
  checkCover(t, text, { ...SPEC, chunkOverlap: 0 });
});
