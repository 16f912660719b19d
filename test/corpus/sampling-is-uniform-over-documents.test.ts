// Sampling draws documents uniformly (chi-square at p = 0.001) whatever their chunk counts, and a document's
// chunks uniformly.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { makeRandom } from '../../sandbox/prng.js';
import { CHI2_999, chiSquare, prose, tempDir, writeJsonl } from './helpers.js';
import { DRAWS, counts } from './draw-counts.js';

t.test('uniform over documents, whatever their length', async (t) => {
  const dir = tempDir(t);
  // Documents of 1, 2, ... 6 chunks: uniform means per document, not per chunk.
  const ids = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'];
  writeJsonl(join(dir, 'c.jsonl'), ids.map((id, i) => ({ id, text: prose(id, 900 * (i + 1) - 100) })));
  const corpus = await openCorpus({ paths: [dir], chunkChars: 1000, chunkOverlap: 100 });
  t.ok(corpus.size > 12, `documents are split (${corpus.size} chunks)`);
  const obs = counts(t, corpus, 1, (c) => c.docId, ids);
  const chi = chiSquare(obs, ids.map(() => 1 / 6));
  t.ok(chi < CHI2_999[5]!, `chi-square ${chi.toFixed(2)} < ${CHI2_999[5]} (${obs.join(' ')})`);

  const perChunk = new Map<string, number>();
  const random = makeRandom(2);
  for (let i = 0; i < DRAWS; i++) {
    const c = corpus.sample(random);
    if (c.docId === 'd6') perChunk.set(c.id, (perChunk.get(c.id) ?? 0) + 1);
  }
  const d6 = [...perChunk.values()];
  t.ok(chiSquare(d6, d6.map(() => 1 / d6.length)) < CHI2_999[d6.length - 1]!, "a document's chunks are drawn uniformly");
});
