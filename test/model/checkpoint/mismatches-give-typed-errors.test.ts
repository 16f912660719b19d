// Each way a checkpoint can disagree with the model names the tensor and the mismatch.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint, saveCheckpoint } from '../../../model/checkpoint.js';
import {
  CheckpointConfigError, DtypeMismatchError, isCheckpointError, MissingTensorError, ShapeMismatchError, UnexpectedTensorError,
} from '../../../model/errors.js';
import { encodeSafetensors } from '../../../model/safetensors.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { makeOptimizerState, makeParams, SHAPES, tempDir } from './fixture.js';

const model = { layers: 1 };

async function saved(t: Parameters<typeof tempDir>[0]): Promise<string> {
  const dir = join(await tempDir(t), 'ckpt');
  const params = makeParams();
  await saveCheckpoint(dir, { model, params, shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0, optimizer: makeOptimizerState(params) });
  return dir;
}

t.test('weights vs the expected table', async (t) => {
  const dir = await saved(t);
  const missing = new Map([...SHAPES, ['output.weight', [8, 4]]]);
  let e = await caughtAsync(() => loadCheckpoint(dir, { shapes: missing }));
  t.ok(e instanceof MissingTensorError && e.tensor === 'output.weight' && /missing tensor "output.weight"/.test(String(e)), String(e));

  const fewer = new Map([...SHAPES].filter(([n]) => n !== 'norm.weight'));
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: fewer }));
  t.ok(e instanceof UnexpectedTensorError && e.tensor === 'norm.weight', String(e));

  const wider = new Map([...SHAPES, ['tok_embeddings.weight', [8, 5]]]);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: wider }));
  t.ok(e instanceof ShapeMismatchError && e.tensor === 'tok_embeddings.weight' && /shape \[8, 4\], expected \[8, 5\]/.test(String(e)), String(e));
  t.ok(String(e).includes(CHECKPOINT_FILES.weights), 'names the file');

  const transposed = new Map([...SHAPES, ['tok_embeddings.weight', [4, 8]]]);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: transposed }));
  t.ok(e instanceof ShapeMismatchError, 'same element count, other shape: still a mismatch');
});

t.test('dtype', async (t) => {
  const dir = await saved(t);
  const f64 = [...makeParams()].map(([n, p]) => [n, { shape: SHAPES.get(n)!, data: Float64Array.from(p) }] as [string, { shape: readonly number[]; data: Float64Array }]);
  await writeFile(join(dir, CHECKPOINT_FILES.weights), encodeSafetensors(f64));
  const e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof DtypeMismatchError && e.actual === 'F64' && /dtype F64, expected F32/.test(String(e)), String(e));
  const ok = await loadCheckpoint(dir, { shapes: SHAPES, dtypes: ['F32', 'F64'] });
  t.equal(ok.params.get('norm.weight')![0], makeParams().get('norm.weight')![0], 'F64 converts when allowed');
});

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

t.test('config and tokenizer', async (t) => {
  const dir = await saved(t);
  const configPath = join(dir, CHECKPOINT_FILES.config);
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  await writeFile(configPath, JSON.stringify({ ...config, policyVersion: -1 }));
  let e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && e.field === 'policyVersion', String(e));
  await writeFile(configPath, '{"format": "spade-checkpoint",');
  e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && /not valid JSON/.test(String(e)), String(e));
  await writeFile(configPath, JSON.stringify(config));
  await writeFile(join(dir, CHECKPOINT_FILES.tokenizer), JSON.stringify({ ...byteTokenizer().toJSON(), name: 'other' }));
  e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && /sha256/.test(String(e)), String(e));
  await writeFile(join(dir, CHECKPOINT_FILES.tokenizer), JSON.stringify(byteTokenizer().toJSON()));
  await writeFile(configPath, JSON.stringify({ ...config, model: { vocab: 100 } }));
  e = await caughtAsync(() => loadCheckpoint(dir));
  t.ok(e instanceof CheckpointConfigError && e.field === 'model.vocab' && /smaller than the tokenizer's vocab 272/.test(String(e)), String(e));
  e = await caughtAsync(() => loadCheckpoint(join(dir, 'nope')));
  t.ok(isCheckpointError(e) && /cannot read/.test(String(e)), String(e));
});

t.test('saving validates too', async (t) => {
  const root = await tempDir(t);
  const params = makeParams();
  params.set('norm.weight', new Float32Array(3));
  const e = await caughtAsync(() => saveCheckpoint(join(root, 'x'), { model, params, shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0 }));
  t.ok(e instanceof ShapeMismatchError && e.tensor === 'norm.weight', String(e));
  const e2 = await caughtAsync(() => saveCheckpoint(join(root, 'y'), { model, params: makeParams(), shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 1.5, step: 0 }));
  t.ok(e2 instanceof CheckpointConfigError && e2.field === 'policyVersion', String(e2));
});
