// The warm start initialised from a Hugging Face directory trains that model: its shape and weights, its tokenizer,
// and its chat template for the designer and agent rows; the saved checkpoint loads (through loadModel) with the
// model's own tokenizer.
import t from 'tap';
import { join } from 'node:path';
import { loadModel } from '../../model/index.js';
import { warmStart } from '../../warmstart/index.js';
import { hfFixtureCopy } from '../helpers/hf-fixture.js';
import { tempDir } from '../helpers/nats.js';

t.setTimeout(300_000);

t.test('a few warm-start steps on a Hugging Face model', async (t) => {
  // The fixture's 48 ids spell most text a character at a time: a long context holds a designer row.
  const init = await hfFixtureCopy(t, 'qwen2-f32-tied', { contextLength: 8192 });
  const out = join(tempDir(t, 'warm-start-hf-'), 'ckpt');
  const s = await warmStart({
    initCheckpoint: init, steps: 3, batchTokens: 8192, lr: 1e-2, minLr: 1e-3, warmupSteps: 1, agentFraction: 0.5, episodesPerEnv: 1,
    documents: 'stand-in', outDir: out, saveEvery: 0, logEvery: 1, minutes: 0, planBy: 'steps',
  }, () => {});
  const m = await loadModel(init);
  t.same(s.config, m.model, 'the model trained is the directory\'s');
  t.equal(s.steps, 3);
  t.ok(s.curve.every((p) => [p.designer, p.agent].every((x) => x === null || Number.isFinite(x))), 'finite losses');
  const ck = await loadModel(out);
  t.equal(ck.tokenizer?.kind, 'hf', 'the checkpoint carries the model\'s tokenizer');
  t.ok(ck.tokenizer?.encodeChat, 'and its chat template');
  t.equal(ck.step, 3);
  t.ok([...ck.params].some(([name, p]) => p.some((x, i) => x !== m.params.get(name)![i])), 'the weights were trained');
});
