// An episode whose turns carry one cacheKey prefills only each turn's new tokens, and samples what full prefills
// sample: the same tokens, and log-probs equal within float32 rounding (1e-4), greedy and seeded (temperature 1).
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler, type SampleOutput } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

/** Three turns: each prompt is the last prompt, its sampled tokens and a three-token observation. */
async function episode(s: Sampler, temperature: number, cacheKey?: string): Promise<SampleOutput[]> {
  const outs: SampleOutput[] = [];
  let prompt = [1, 2, 3, 4, 5];
  for (let turn = 0; turn < 3; turn++) {
    const o = await s.generate({ prompt, temperature, maxTokens: 6, ...(cacheKey ? { cacheKey } : {}) });
    outs.push(o);
    prompt = [...prompt, ...o.tokens, 20 + turn, 21, 22];
  }
  return outs;
}

for (const temperature of [0, 1]) {
  t.test(`temperature ${temperature}: cached turns equal full prefills`, async (t) => {
    const session = await ModelSession.create(TINY, { graphs: ['sample'] });
    const weights = tinyWeights(5);
    const full = new Sampler(session, weights, 1, null, { seed: 7, prefixCacheBytes: 0 });
    const want = await episode(full, temperature);
    await full.close();
    const cached = new Sampler(session, weights, 1, null, { seed: 7, prefixMinReuse: 1 });
    const got = await episode(cached, temperature, 'ep-1');
    const stats = cached.prefixStats!;
    t.equal(stats.hits, 2, 'turns 2 and 3 started from the cache');
    t.equal(stats.misses, 1, 'turn 1 had nothing cached');
    // Turn 2 reuses turn 1's 5 prompt + 5 fed tokens, turn 3 turn 2's 14 + 5 (the last sampled token was never fed).
    t.equal(stats.reusedTokens, 10 + 19);
    let maxDiff = 0;
    got.forEach((o, i) => {
      t.same(o.tokens, want[i]!.tokens, `turn ${i + 1} tokens equal`);
      t.equal(o.finishReason, want[i]!.finishReason);
      o.logprobs.forEach((lp, j) => (maxDiff = Math.max(maxDiff, Math.abs(lp - want[i]!.logprobs[j]!))));
      o.sampleLogprobs.forEach((lp, j) => (maxDiff = Math.max(maxDiff, Math.abs(lp - want[i]!.sampleLogprobs[j]!))));
    });
    t.ok(maxDiff < 1e-4, `log-probs match full prefills (max diff ${maxDiff.toExponential(2)})`);
    await cached.close();
    await session.release();
  });
}
