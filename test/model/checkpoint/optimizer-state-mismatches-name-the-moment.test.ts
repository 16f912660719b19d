// Optimizer moments that are missing or of the wrong shape fail with a typed error naming the moment and the file;
// optimizer: false skips them.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint } from '../../../model/checkpoint.js';
import { MissingTensorError, ShapeMismatchError } from '../../../model/errors.js';
import { encodeSafetensors } from '../../../model/safetensors.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { SHAPES } from './fixture.js';
import { saved } from './saved-checkpoint.js';

t.test('optimizer state', async (t) => {
  const dir = await saved(t);
  const bad = new Map([...SHAPES].filter(([n]) => n !== 'norm.weight'));
  const e = await caughtAsync(() => loadCheckpoint(dir, { shapes: new Map([...bad, ['norm.weight', [4]]]), optimizer: true }));
  t.equal(e, undefined, 'a table listing the same shapes in another order loads');
  const moments = [['m.norm.weight', { shape: [4], data: new Float32Array(4) }]] as Array<[string, { shape: number[]; data: Float32Array }]>;
  await writeFile(join(dir, CHECKPOINT_FILES.optimizer), encodeSafetensors(moments));
  const e2 = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e2 instanceof MissingTensorError && e2.tensor === 'v.norm.weight' && String(e2).includes(CHECKPOINT_FILES.optimizer), String(e2));
  await writeFile(join(dir, CHECKPOINT_FILES.optimizer), encodeSafetensors([['m.norm.weight', { shape: [5], data: new Float32Array(5) }], ['v.norm.weight', { shape: [5], data: new Float32Array(5) }]]));
  const e3 = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e3 instanceof ShapeMismatchError && e3.tensor === 'm.norm.weight', String(e3));
  t.equal((await loadCheckpoint(dir, { shapes: SHAPES, optimizer: false })).optimizer, undefined, 'optimizer: false skips it');
});
