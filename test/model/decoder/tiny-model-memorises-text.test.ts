// End to end: the training graph's gradients plus AdamW memorise a short text, and greedy sampling with the
// trained weights then reproduces it from its first bytes.
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { AdamW } from '../../../model/optimizer.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { ModelSession } from '../../../model/session.js';

const TEXT = 'the quick brown fox jumps over the lazy dog';
const config: DecoderConfig = { layers: 2, width: 48, heads: 4, kvHeads: 2, contextLength: 64, vocab: 128, ffnHidden: 96 };
const THRESHOLD = 0.05; // nats per token, masked mean

t.test('loss falls below the threshold within the step budget, and sampling recites the text', async (t) => {
  const ids = [...TEXT].map((c) => c.charCodeAt(0));
  const T = ids.length;
  const session = await ModelSession.create(config);
  const weights = initParameters(config, 42);
  const opt = new AdamW({ weightDecay: 0, schedule: { peakLr: 1e-2, warmupSteps: 10, decaySteps: 300, minLr: 1e-3 } });
  const mask = new Float32Array(T - 1).fill(1);
  const dlogp = new Float32Array(T - 1).fill(-1 / (T - 1)); // gradient of the mean NLL
  const tokens = BigInt64Array.from(ids, BigInt);
  let loss = Infinity, steps = 0;
  const first = (await session.train({ tokens, batch: 1, time: T, mask, dlogp }, weights)).loss;
  while (loss > THRESHOLD && steps < 300) {
    const r = await session.train({ tokens, batch: 1, time: T, mask, dlogp }, weights);
    loss = r.loss;
    opt.update(weights, r.grads as Map<string, Float32Array>);
    steps++;
  }
  console.log(`# memorisation: loss ${first.toFixed(3)} -> ${loss.toFixed(4)} in ${steps} steps`);
  t.ok(loss < THRESHOLD, `loss ${loss.toFixed(4)} < ${THRESHOLD} after ${steps} steps`);
  const sampler = new Sampler(session, weights, 1);
  const out = await sampler.generate({ prompt: ids.slice(0, 4), temperature: 0, maxTokens: T - 4 });
  t.equal(String.fromCharCode(...out.tokens), TEXT.slice(4));
  await sampler.close();
  await session.release();
});
