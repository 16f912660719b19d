// Turns that start from cached prefixes join a batch that is decoding, two of them in one suffix prefill (different
// cached lengths and suffix lengths), and every row's greedy tokens and log-probs equal those without the cache.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler, type SampleOutput } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

const starts = [[1, 2, 3, 4, 5, 6, 7], [8, 9, 10]];

/** A long generation, and meanwhile two episodes of two turns each, whose turns are asked for together. */
async function run(s: Sampler, keyed: boolean): Promise<SampleOutput[]> {
  const long = s.generate({ prompt: [11, 12, 13], temperature: 0, maxTokens: 40 });
  const gen = (prompt: number[], i: number): Promise<SampleOutput> => s.generate({ prompt, temperature: 0, maxTokens: 5, ...(keyed ? { cacheKey: `ep-${i}` } : {}) });
  const first = await Promise.all(starts.map(gen));
  const next = starts.map((p, i) => [...p, ...first[i]!.tokens, 14, ...(i ? [15, 16, 17] : [])]);
  const second = await Promise.all(next.map(gen));
  return [await long, ...first, ...second];
}

t.test('cached joiners decode beside a running row and match uncached runs', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const weights = tinyWeights(9);
  const plain = new Sampler(session, weights, 1, null, { prefixCacheBytes: 0 });
  const want = await run(plain, false);
  await plain.close();
  const s = new Sampler(session, weights, 1, null, { prefixMinReuse: 1 });
  let widest = 0;
  s.onStep = () => (widest = Math.max(widest, s.activeRows));
  const got = await run(s, true);
  t.equal(s.prefixStats!.hits, 2, 'both second turns started from the cache');
  t.equal(widest, 3, 'the cached turns decoded beside the running row');
  t.equal(got[0]!.tokens.length, 40, 'the long row ran through both turns');
  let maxDiff = 0;
  got.forEach((o, i) => {
    t.same(o.tokens, want[i]!.tokens, `row ${i} tokens equal`);
    o.logprobs.forEach((lp, j) => (maxDiff = Math.max(maxDiff, Math.abs(lp - want[i]!.logprobs[j]!))));
  });
  t.ok(maxDiff < 1e-4, `log-probs match (max diff ${maxDiff.toExponential(2)})`);
  await s.close();
  await session.release();
});
