// Tokens drawn at temperature 0.3 carry that temperature; the learner scores them at it, so on-policy samples have
// importance ratio 1 and nothing is clipped. Scored at temperature 1 against the same behaviour log-probs (the
// learner before sampleTemperature), the ratio sits below 1 − ε for the likeliest tokens and above 1 + ε for others,
// and clipping zeroes part of the gradient.
import t from 'tap';
import { AdamW, ModelSession, packBatch } from '../../../model/index.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { PolicyTrainer, trajectoryRows } from '../../../actors/learner/index.js';
import { packFloats, packInts } from '../../../actors/loop/packed.js';
import { TINY, tinyWeights } from '../../model/sampler/tiny.js';

t.test('tempered samples are scored at their temperature', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score', 'sample'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const weights = tinyWeights(6);
  const sampler = new Sampler(session, weights, 0, null, { seed: 3 });
  const prompts = [[1, 2, 3, 4], [7, 7], [20, 3, 9]];
  const outs = await Promise.all(prompts.map((prompt) => sampler.generate({ prompt, temperature: 0.3, maxTokens: 24 })));
  await sampler.close();

  // The scoring graph at the row's temperature reproduces the sampler's behaviour log-probs.
  const seq = [...prompts[0]!, ...outs[0]!.tokens];
  const at = async (temperature: number) => (await session.score(packBatch([{ tokens: seq, temperature }]), weights)).logp;
  const tempered = await at(0.3), plain = await at(1);
  let diff = 0, plainDiff = 0;
  outs[0]!.sampleLogprobs.forEach((lp, j) => {
    diff = Math.max(diff, Math.abs(lp - tempered[prompts[0]!.length - 1 + j]!));
    plainDiff = Math.max(plainDiff, Math.abs(lp - plain[prompts[0]!.length - 1 + j]!));
  });
  t.ok(diff <= 1e-4, `scored at 0.3: max abs diff to the behaviour log-probs ${diff.toExponential(2)}`);
  t.ok(plainDiff > 0.1, `scored at 1 the log-probs differ (max ${plainDiff.toFixed(3)})`);

  const rows = outs.flatMap((o, i) => trajectoryRows({
    trajId: `e${i}`, role: 'agent', advantage: i === 1 ? -1 : 1, reward: 0,
    samples: [{ promptTokens: packInts(prompts[i]!), tokens: packInts(o.tokens), logprobs: packFloats(o.sampleLogprobs), versions: packInts(o.versions), temperature: 0.3, text: '', finishReason: o.finishReason }],
  }, { contextLength: TINY.contextLength, vocab: TINY.vocab }));
  t.same(rows.map((r) => r.temperature), [0.3, 0.3, 0.3], 'rows carry the temperature of their samples');

  const trainer = (sampleTemperature: boolean) => new PolicyTrainer(session, new Map([...weights].map(([k, v]) => [k, v.slice()])),
    new AdamW({ schedule: { peakLr: 1e-3, warmupSteps: 0, decaySteps: 10, minLr: 1e-3 } }), { kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096, sampleTemperature });
  const on = (await trainer(true).gradients(rows)).stats;
  t.ok(Math.abs(on.meanRatio - 1) < 1e-3, `at the sampled temperature the mean ratio is 1 (${on.meanRatio.toFixed(5)})`);
  t.equal(on.clipFraction, 0, 'and nothing is clipped');
  const off = (await trainer(false).gradients(rows)).stats;
  t.ok(off.clipFraction > 0.1, `at temperature 1, ${(off.clipFraction * 100).toFixed(0)}% of the on-policy tokens are clipped`);
});
