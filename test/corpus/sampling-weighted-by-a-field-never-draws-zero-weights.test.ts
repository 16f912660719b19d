// With weightField, documents are drawn in proportion to that field (chi-square at p = 0.001); zero weights
// are never drawn.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { CHI2_999, chiSquare, prose, tempDir, writeJsonl } from './helpers.js';
import { counts } from './draw-counts.js';

t.test('weighted by a field, zero weight never drawn', async (t) => {
  const dir = tempDir(t);
  const weights = { a: 1, b: 2, c: 3, d: 4, z: 0 };
  writeJsonl(join(dir, 'c.jsonl'), Object.entries(weights).map(([id, weight]) => ({ id, text: prose(id, 300), weight })));
  const corpus = await openCorpus({ paths: [dir], weightField: 'weight' });
  const obs = counts(t, corpus, 7, (c) => c.docId, ['a', 'b', 'c', 'd']);
  const chi = chiSquare(obs, [0.1, 0.2, 0.3, 0.4]);
  t.ok(chi < CHI2_999[3]!, `chi-square ${chi.toFixed(2)} < ${CHI2_999[3]} (${obs.join(' ')})`);
  t.ok(chiSquare(obs, [0.25, 0.25, 0.25, 0.25]) > 1000, 'and clearly not uniform');
});
