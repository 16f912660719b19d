// Weights, optimizer state, config and tokenizer come back bit for bit, and saving what was loaded reproduces
// the files byte for byte.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint, saveCheckpoint } from '../../../model/checkpoint.js';
import { loadTokenizer } from '../../../model/tokenizer.js';
import { bytesOf, makeOptimizerState, makeParams, SHAPES, tempDir } from './fixture.js';

const model = { layers: 1, width: 4, heads: 1, vocabSize: 8 };

t.test('round trip', async (t) => {
  const root = await tempDir(t);
  const params = makeParams();
  const optimizer = makeOptimizerState(params);
  const dir = join(root, 'step-2');
  const tokenizer = loadTokenizer();
  await saveCheckpoint(dir, { model, params, shapes: SHAPES, tokenizer, policyVersion: 7, step: 2, optimizer });
  const got = await loadCheckpoint(dir, { shapes: SHAPES });
  t.same(got.config.model, model);
  t.equal(got.config.policyVersion, 7);
  t.equal(got.config.step, 2);
  t.equal(got.tokenizer.vocabSize, tokenizer.vocabSize);
  t.same(got.tokenizer.encode('export default class Env {}'), tokenizer.encode('export default class Env {}'));
  t.same([...got.params.keys()], [...SHAPES.keys()]);
  for (const [n, p] of params) t.ok(bytesOf(got.params.get(n)!).equals(bytesOf(p)), `${n} bit-exact`);
  t.equal(got.optimizer?.step, optimizer.step);
  for (const [n, m] of optimizer.m) {
    t.ok(bytesOf(got.optimizer!.m.get(n)!).equals(bytesOf(m)), `m.${n} bit-exact`);
    t.ok(bytesOf(got.optimizer!.v.get(n)!).equals(bytesOf(optimizer.v.get(n)!)), `v.${n} bit-exact`);
  }

  // Saving what was loaded reproduces the files byte for byte.
  const again = join(root, 'again');
  await saveCheckpoint(again, { model, params: got.params, shapes: SHAPES, tokenizer: got.tokenizer, policyVersion: 7, step: 2, optimizer: got.optimizer! });
  for (const f of Object.values(CHECKPOINT_FILES)) {
    t.ok((await readFile(join(dir, f))).equals(await readFile(join(again, f))), `${f} identical`);
  }
});
