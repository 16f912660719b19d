// The shipped base checkpoint, prompted as the designer with corpus documents, writes modules that pass the whole
// sandbox validation (a small seeded sample; docs/warm-start.md has the N=40 figures).
import t from 'tap';
import { existsSync } from 'node:fs';
import { evaluateDesigner } from '../../warmstart/index.js';
import { repoPath } from '../../runtime/paths.js';

const dir = repoPath('model', 'checkpoints', 'base');

t.test('two designer samples at temperature 0.5 validate', { skip: !existsSync(dir) && 'no shipped checkpoint yet' }, async (t) => {
  const r = await evaluateDesigner({ checkpoint: dir, samples: 2, temperature: 0.5, maxBatch: 2, documents: 'auto', seed: 3 });
  for (const s of r.samples) t.equal(s.stage, 'ok', `${s.name ?? '(no spec)'}: ${s.detail ?? 'validates'}`);
  t.equal(r.passRate, 1);
});
