// With balanceField, each value of the field (a missing field is its own group) is drawn equally often,
// whatever the number of documents per value.
import t from 'tap';
import { join } from 'node:path';
import { openCorpus } from '../../corpus/index.js';
import { CHI2_999, chiSquare, prose, tempDir, writeJsonl } from './helpers.js';
import { counts } from './draw-counts.js';

t.test('balanced across the values of a field', async (t) => {
  const dir = tempDir(t);
  const lines = [];
  for (let i = 0; i < 30; i++) lines.push({ id: `big${i}`, text: prose(`big${i}`, 300), kind: 'big' });
  for (let i = 0; i < 3; i++) lines.push({ id: `small${i}`, text: prose(`small${i}`, 300), kind: 'small' });
  lines.push({ id: 'alone', text: prose('alone', 300) });
  writeJsonl(join(dir, 'c.jsonl'), lines);
  const corpus = await openCorpus({ paths: [dir], balanceField: 'kind' });
  const obs = counts(t, corpus, 3, (c) => String(c.meta.kind ?? 'none'), ['big', 'small', 'none']);
  const chi = chiSquare(obs, [1 / 3, 1 / 3, 1 / 3]);
  t.ok(chi < CHI2_999[2]!, `each kind (a missing field is its own group) gets a third: ${obs.join(' ')}`);
});
