// Saving a checkpoint checks the parameters against the table and the config fields, as loading does.
import { join } from 'node:path';
import t from 'tap';
import { saveCheckpoint } from '../../../model/checkpoint.js';
import { CheckpointConfigError, ShapeMismatchError } from '../../../model/errors.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { makeParams, SHAPES, tempDir } from './fixture.js';
import { model } from './saved-checkpoint.js';

t.test('saving validates too', async (t) => {
  const root = await tempDir(t);
  const params = makeParams();
  params.set('norm.weight', new Float32Array(3));
  const e = await caughtAsync(() => saveCheckpoint(join(root, 'x'), { model, params, shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0 }));
  t.ok(e instanceof ShapeMismatchError && e.tensor === 'norm.weight', String(e));
  const e2 = await caughtAsync(() => saveCheckpoint(join(root, 'y'), { model, params: makeParams(), shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 1.5, step: 0 }));
  t.ok(e2 instanceof CheckpointConfigError && e2.field === 'policyVersion', String(e2));
});
