// A NaN or an infinity in a checkpoint's weights or optimizer moments (or an F64 weight beyond the F32 range, which
// converts to one), or a negative second moment, is refused on load with a typed error naming the file, the tensor
// and the element; saving such values is refused too, and nothing is written.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint, saveCheckpoint } from '../../../model/checkpoint.js';
import { CorruptFileError, NonFiniteTensorError } from '../../../model/errors.js';
import { decodeSafetensors, encodeSafetensors } from '../../../model/safetensors.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { makeOptimizerState, makeParams, SHAPES, tempDir } from './fixture.js';
import { saved } from './saved-checkpoint.js';

/** Overwrites element `index` of `tensor` in a saved safetensors file with `value` (an F32 write in place). */
async function poke(path: string, tensor: string, index: number, value: number): Promise<void> {
  const bytes = await readFile(path);
  const t = decodeSafetensors(bytes).tensors.get(tensor)!;
  new DataView(bytes.buffer, bytes.byteOffset).setFloat32(t.bytes.byteOffset - bytes.byteOffset + 4 * index, value, true);
  await writeFile(path, bytes);
}

const refused = (t: Test, e: unknown, file: string, tensor: string, index: number, value: RegExp): void => {
  t.ok(e instanceof NonFiniteTensorError, `NonFiniteTensorError: ${String(e)}`);
  const n = e as NonFiniteTensorError;
  t.match(n, { code: 'CHECKPOINT_NONFINITE', file, tensor, index });
  t.match(String(n), value);
  t.match(String(n), new RegExp(`${file}: tensor "${tensor.replace('.', '\\.')}`));
};

t.test('non-finite values are refused naming the tensor', async (t) => {
  t.test('loading', async (t) => {
    for (const [value, label] of [[NaN, /holds NaN at element 5/], [Infinity, /holds Infinity/], [-Infinity, /holds -Infinity/]] as const) {
      const dir = await saved(t);
      await poke(join(dir, CHECKPOINT_FILES.weights), 'layers.0.attention.wq.weight', 5, value);
      refused(t, await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES })), CHECKPOINT_FILES.weights, 'layers.0.attention.wq.weight', 5, label);
      refused(t, await caughtAsync(() => loadCheckpoint(dir)), CHECKPOINT_FILES.weights, 'layers.0.attention.wq.weight', 5, label);
    }

    const dir = await saved(t);
    await poke(join(dir, CHECKPOINT_FILES.optimizer), 'm.norm.weight', 2, NaN);
    refused(t, await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES })), CHECKPOINT_FILES.optimizer, 'm.norm.weight', 2, /NaN/);
    t.ok(await loadCheckpoint(dir, { shapes: SHAPES, optimizer: false }), 'the weights alone are fine');

    const dirV = await saved(t);
    await poke(join(dirV, CHECKPOINT_FILES.optimizer), 'v.norm.weight', 1, -0.5);
    const eV = await caughtAsync(() => loadCheckpoint(dirV, { shapes: SHAPES }));
    t.ok(eV instanceof CorruptFileError && /optimizer\.safetensors: .*"v\.norm\.weight" holds -0\.5 at element 1: second moments are >= 0/.test(String(eV)), String(eV));

    // An F64 checkpoint (read when dtypes allows it) whose value does not fit F32 would arrive as an infinity.
    const dir64 = await saved(t);
    const params64 = [...makeParams()].map(([n, p]) => [n, { shape: SHAPES.get(n)!, data: Float64Array.from(p) }] as [string, { shape: readonly number[]; data: Float64Array }]);
    params64.find(([n]) => n === 'norm.weight')![1].data[3] = 1e300;
    await writeFile(join(dir64, CHECKPOINT_FILES.weights), encodeSafetensors(params64));
    refused(t, await caughtAsync(() => loadCheckpoint(dir64, { shapes: SHAPES, dtypes: ['F64'], optimizer: false })), CHECKPOINT_FILES.weights, 'norm.weight', 3, /Infinity/);
  });

  t.test('saving', async (t) => {
    const root = await tempDir(t);
    const params = makeParams();
    params.get('norm.weight')![0] = NaN;
    const e = await caughtAsync(() => saveCheckpoint(join(root, 'a'), { model: {}, params, shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0 }));
    refused(t, e, CHECKPOINT_FILES.weights, 'norm.weight', 0, /NaN/);
    t.equal(await stat(join(root, 'a')).catch(() => null), null, 'nothing written');

    const good = makeParams();
    const opt = makeOptimizerState(good);
    opt.v.get('layers.0.attention_norm.weight')![3] = Infinity;
    const e2 = await caughtAsync(() => saveCheckpoint(join(root, 'b'), { model: {}, params: good, shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0, optimizer: opt }));
    refused(t, e2, CHECKPOINT_FILES.optimizer, 'v.layers.0.attention_norm.weight', 3, /Infinity/);
    t.equal(await stat(join(root, 'b')).catch(() => null), null, 'nothing written');
  });
});
