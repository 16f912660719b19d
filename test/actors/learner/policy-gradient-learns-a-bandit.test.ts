// The whole learning path on a one-step bandit: sample from the policy, reward tokens in the lower half of the
// vocabulary, GRPO-normalise (the evaluator's groupNormalise), update with the learner's trainer. The rewarded
// share rises from about a half to most samples (both objectives, and with samples two versions stale), so signs,
// token-mean and the importance ratios fit together.
import t from 'tap';
import { groupNormalise } from '../../../actors/evaluator/score.js';
import { PolicyTrainer, type Row } from '../../../actors/learner/index.js';
import { AdamW, ModelSession, Sampler, initParameters } from '../../../model/index.js';
import { TINY } from './tiny.js';

const PROMPT = [1, 2, 3];
const rewarded = (token: number) => (token < 136 ? 1 : 0);

for (const kind of ['behaviour', 'decoupled'] as const)
t.test(`rewarded share rises under policy-gradient updates (${kind})`, async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score', 'sample'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const weights = initParameters(TINY, 9);
  const sampler = new Sampler(session, weights, 0, null, { seed: 4 });
  t.teardown(() => sampler.close());
  const opt = new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 100, minLr: 1e-2 }, weightDecay: 0 });
  const trainer = new PolicyTrainer(session, weights, opt, { kind, clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096 });
  const round = async (n: number) => Promise.all(Array.from({ length: n }, () => sampler.generate({ prompt: PROMPT, temperature: 1, maxTokens: 1 })));

  const share = (outs: Awaited<ReturnType<typeof round>>) => outs.filter((o) => rewarded(o.tokens[0]!)).length / outs.length;
  const before = share(await round(64));
  for (let step = 0; step < 40; step++) {
    const outs = await round(16);
    const adv = groupNormalise(outs.map((o) => rewarded(o.tokens[0]!)), 1e-6);
    const rows: Row[] = outs.map((o, i) => ({ trajId: `s${step}-${i}`, tokens: [...PROMPT, o.tokens[0]!], positions: [PROMPT.length], behaviour: Float32Array.of(o.logprobs[0]!), advantage: adv[i]! }));
    const stats = await trainer.update(rows);
    t.ok(Math.abs(stats.meanRatio - 1) < 1e-3, `step ${step}: on-policy (ratio ${stats.meanRatio.toFixed(5)})`);
  }
  const after = share(await round(64));
  t.ok(before > 0.3 && before < 0.7, `about half rewarded before (${before})`);
  t.ok(after > 0.85, `most rewarded after 40 updates (${after})`);
});

t.test('still learns when every sample is two versions stale (clipping and TIS at work)', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score', 'sample'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const weights = initParameters(TINY, 9);
  const snapshot = () => new Map([...weights].map(([k, v]) => [k, v.slice()]));
  const history = [snapshot(), snapshot()]; // the sampler runs the weights of two updates ago
  const sampler = new Sampler(session, history[0]!, 0, null, { seed: 4 });
  t.teardown(() => sampler.close());
  const opt = new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 100, minLr: 1e-2 }, weightDecay: 0 });
  const trainer = new PolicyTrainer(session, weights, opt, { kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096 });
  const round = async (n: number) => Promise.all(Array.from({ length: n }, () => sampler.generate({ prompt: PROMPT, temperature: 1, maxTokens: 1 })));
  let offPolicy = 0;
  for (let step = 0; step < 40; step++) {
    const outs = await round(16);
    const adv = groupNormalise(outs.map((o) => rewarded(o.tokens[0]!)), 1e-6);
    const rows: Row[] = outs.map((o, i) => ({ trajId: `s${step}-${i}`, tokens: [...PROMPT, o.tokens[0]!], positions: [PROMPT.length], behaviour: Float32Array.of(o.logprobs[0]!), advantage: adv[i]! }));
    const stats = await trainer.update(rows);
    offPolicy = Math.max(offPolicy, Math.abs(stats.meanRatio - 1));
    history.push(snapshot());
    sampler.setWeights(history.shift()!, step + 1);
  }
  sampler.setWeights(weights, 99);
  const outs = await round(64);
  const after = outs.filter((o) => rewarded(o.tokens[0]!)).length / outs.length;
  t.ok(offPolicy > 1e-3, `the data really was off-policy (max |mean ratio − 1| ${offPolicy.toFixed(4)})`);
  t.ok(after > 0.8, `most rewarded after 40 stale updates (${after})`);
});
