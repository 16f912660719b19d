// Weights of another dtype fail with DtypeMismatchError naming both dtypes, or convert when that dtype is allowed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint } from '../../../model/checkpoint.js';
import { DtypeMismatchError } from '../../../model/errors.js';
import { encodeSafetensors } from '../../../model/safetensors.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { makeParams, SHAPES } from './fixture.js';
import { saved } from './saved-checkpoint.js';

t.test('dtype', async (t) => {
  const dir = await saved(t);
  const f64 = [...makeParams()].map(([n, p]) => [n, { shape: SHAPES.get(n)!, data: Float64Array.from(p) }] as [string, { shape: readonly number[]; data: Float64Array }]);
  await writeFile(join(dir, CHECKPOINT_FILES.weights), encodeSafetensors(f64));
  const e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof DtypeMismatchError && e.actual === 'F64' && /dtype F64, expected F32/.test(String(e)), String(e));
  const ok = await loadCheckpoint(dir, { shapes: SHAPES, dtypes: ['F32', 'F64'] });
  t.equal(ok.params.get('norm.weight')![0], makeParams().get('norm.weight')![0], 'F64 converts when allowed');
});
