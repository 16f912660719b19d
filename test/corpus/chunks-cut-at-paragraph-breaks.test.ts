// Long documents are cut at paragraph breaks when there are some, each chunk overlapping the previous one
// and the chunks covering the whole text.
import t from 'tap';
import { chunkText } from '../../corpus/index.js';
import { prose } from './helpers.js';
import { SPEC, checkCover } from './chunk-cover.js';

t.test('cuts at paragraph breaks when there are some', async (t) => {
  const paras = Array.from({ length: 8 }, (_, i) => prose(`p${i}`, 180));
  const text = paras.join('\n\n');
  const chunks = chunkText(text, SPEC);
  t.ok(chunks.length > 1);
  for (const c of chunks.slice(0, -1)) t.ok(paras.some((p) => c.endsWith(p)), 'each chunk ends with a whole paragraph');
  checkCover(t, text, SPEC);
});
