// The behaviour log-probs the sampler records equal what the learner recomputes with the scoring graph on the
// same tokens, for concurrent requests whose caches grow past several capacity doublings.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

t.test('sampled log-probs = scoring-graph log-probs (max abs diff <= 1e-4)', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['score', 'sample'] });
  const w = tinyWeights(6);
  const s = new Sampler(session, w, 1, null, { seed: 3 });
  const prompts = [[1, 2, 3, 4, 5, 6, 7, 8, 9], [20], [4, 4, 4, 4]];
  const outs = await Promise.all(prompts.map((prompt, i) => s.generate({ prompt, temperature: 1, maxTokens: 30 + i * 4 })));
  let maxDiff = 0, count = 0;
  for (const [i, o] of outs.entries()) {
    const seq = [...prompts[i]!, ...o.tokens];
    const r = await session.score({ tokens: BigInt64Array.from(seq, BigInt), batch: 1, time: seq.length, mask: new Float32Array(seq.length - 1).fill(1) }, w);
    o.logprobs.forEach((lp, j) => {
      maxDiff = Math.max(maxDiff, Math.abs(lp - r.logp[prompts[i]!.length - 1 + j]!));
      count++;
    });
  }
  console.log(`# sampler vs scoring graph: max abs diff ${maxDiff.toExponential(2)} over ${count} tokens`);
  t.equal(count, 30 + 34 + 38);
  t.ok(maxDiff <= 1e-4, `max abs diff ${maxDiff.toExponential(2)}`);
  await s.close();
  await session.release();
});
