// Without sentence ends a text is cut between words, and without spaces by a hard cut that never splits a
// surrogate pair.
import t from 'tap';
import { chunkText } from '../../corpus/index.js';
import { SPEC, checkCover } from './chunk-cover.js';

t.test('falls back to words, then to a hard cut', async (t) => {
  const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
  for (const c of chunkText(words, SPEC)) t.match(c, /^word\d+( word\d+)*$/, 'whole words only');
  checkCover(t, words, SPEC);
  const blob = 'x'.repeat(1234);
  const parts = chunkText(blob, { ...SPEC, chunkOverlap: 0 });
  t.same(parts.map((p) => p.length), [500, 500, 234]);
  checkCover(t, blob, SPEC);
  const emoji = '😀'.repeat(700);
  for (const c of chunkText(emoji, { ...SPEC, chunkOverlap: 0 })) t.notMatch(c, /^[\udc00-\udfff]|[\ud800-\udbff]$/, 'no split surrogate pair');
});
