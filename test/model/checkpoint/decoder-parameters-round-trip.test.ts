// The decoder's own parameter table and initial weights, after a few AdamW updates, survive a
// checkpoint bit for bit, and a checkpoint of another config is refused by name and shape.
import { join } from 'node:path';
import t from 'tap';
import { loadCheckpoint, saveCheckpoint } from '../../../model/checkpoint.js';
import { initParameters, parameterShapes } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { MissingTensorError, ShapeMismatchError } from '../../../model/errors.js';
import { AdamW } from '../../../model/optimizer.js';
import { loadTokenizer } from '../../../model/tokenizer.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { bytesOf, tempDir } from './fixture.js';

t.test('decoder weights and optimizer state', async (t) => {
  const tokenizer = loadTokenizer();
  const config: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 64, vocab: tokenizer.vocabSize };
  const shapes = parameterShapes(config);
  const params = initParameters(config, 5);
  const opt = new AdamW();
  for (let s = 0; s < 3; s++) opt.update(params, new Map([...params].map(([n, p]) => [n, p.map((x, i) => Math.cos(x * 7 + i + s))])));
  const dir = join(await tempDir(t), 'ckpt');
  await saveCheckpoint(dir, { model: { ...config }, params, shapes, tokenizer, policyVersion: 3, step: opt.step, optimizer: opt.exportState() });

  const got = await loadCheckpoint(dir, { shapes });
  t.same(got.config.model, config);
  for (const [n, p] of params) t.ok(bytesOf(got.params.get(n)!).equals(bytesOf(p)), `${n} bit-exact`);
  const resumed = new AdamW();
  resumed.loadState(got.optimizer!);
  const grads = new Map([...params].map(([n, p]) => [n, p.map((x) => Math.sin(x))]));
  opt.update(params, grads);
  resumed.update(got.params, grads);
  t.ok([...params].every(([n, p]) => bytesOf(got.params.get(n)!).equals(bytesOf(p))), 'training resumes identically');

  const deeper = await caughtAsync(() => loadCheckpoint(dir, { shapes: parameterShapes({ ...config, layers: 3 }) }));
  t.ok(deeper instanceof MissingTensorError && deeper.tensor === 'layers.2.attention_norm.weight', String(deeper));
  const wider = await caughtAsync(() => loadCheckpoint(dir, { shapes: parameterShapes({ ...config, kvHeads: 4 }) }));
  t.ok(wider instanceof ShapeMismatchError && wider.tensor === 'layers.0.attention.wk.weight', String(wider));
});
