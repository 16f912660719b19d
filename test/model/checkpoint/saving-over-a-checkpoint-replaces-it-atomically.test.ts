// Saving over an existing checkpoint replaces it whole, old optimizer state included, and leaves no temporary
// directories behind.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint, saveCheckpoint } from '../../../model/checkpoint.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { bytesOf, makeOptimizerState, makeParams, SHAPES, tempDir } from './fixture.js';

const model = { layers: 1, width: 4, heads: 1, vocabSize: 8 };

t.test('saving over an existing checkpoint replaces it atomically', async (t) => {
  const root = await tempDir(t);
  const dir = join(root, 'latest');
  await saveCheckpoint(dir, { model, params: makeParams(1), shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 1, step: 1, optimizer: makeOptimizerState(makeParams(1)) });
  const newer = makeParams(2);
  await saveCheckpoint(dir, { model, params: newer, shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 2, step: 5 });
  const got = await loadCheckpoint(dir, { shapes: SHAPES });
  t.equal(got.config.policyVersion, 2);
  t.ok(bytesOf(got.params.get('norm.weight')!).equals(bytesOf(newer.get('norm.weight')!)));
  t.equal(got.optimizer, undefined, 'the old optimizer state went with the old checkpoint');
  t.same(await readdir(root), ['latest'], 'no temporary or aside directories left');
  t.same((await readdir(dir)).sort(), [CHECKPOINT_FILES.config, CHECKPOINT_FILES.weights, CHECKPOINT_FILES.tokenizer].sort());
});
