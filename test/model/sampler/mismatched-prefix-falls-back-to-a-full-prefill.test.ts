// A keyed request whose prompt does not start with the key's cached tokens (another sequence, or a history cut to
// fit the budget) prefills in full, or from the common prefix only, and samples what a full prefill samples.
import t, { type Test } from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler, type SampleOutput } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

const first = [1, 2, 3, 4, 5, 6, 7, 8];
const weights = tinyWeights(5);

/** A sampler that has sampled from `first` under cache key 'ep', so that prompt's tokens are cached. */
async function cachedFirst(t: Test): Promise<{ session: ModelSession; s: Sampler }> {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const s = new Sampler(session, weights, 1, null, { prefixMinReuse: 4 });
  t.teardown(async () => (await s.close(), await session.release()));
  await s.generate({ prompt: first, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
  return { session, s };
}

/** Checks that `got` is what a sampler without a prefix cache samples from `prompt`. */
async function matchesFullPrefill(t: Test, session: ModelSession, prompt: number[], got: SampleOutput): Promise<void> {
  const plain = new Sampler(session, weights, 1, null, { prefixCacheBytes: 0 });
  const want = await plain.generate({ prompt, temperature: 0, maxTokens: 6 });
  await plain.close();
  const maxDiff = Math.max(...got.logprobs.map((lp, j) => Math.abs(lp - want.logprobs[j]!)));
  t.same(got.tokens, want.tokens, 'tokens equal a full prefill');
  t.ok(maxDiff < 1e-4, `log-probs equal a full prefill (max diff ${maxDiff.toExponential(2)})`);
}

t.test('a prompt that does not extend the cached one falls back to a full prefill', async (t) => {
  t.test('a prompt that differs from the first token prefills in full', async (t) => {
    const { session, s } = await cachedFirst(t);
    const other = [9, ...first.slice(1), 10, 11];
    const got = await s.generate({ prompt: other, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.match(s.prefixStats, { hits: 0, misses: 2, reusedTokens: 0 }, 'nothing reused');
    await matchesFullPrefill(t, session, other, got);
  });

  t.test('a prompt that shares only its head reuses the head, or nothing when shorter than prefixMinReuse', async (t) => {
    const { session, s } = await cachedFirst(t);
    // A truncated history: the head stays, an old turn is dropped.
    const cut = [...first.slice(0, 5), 12, 13, 14];
    const got = await s.generate({ prompt: cut, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.match(s.prefixStats, { hits: 1, reusedTokens: 5 }, 'the common head of 5 tokens was reused');
    await matchesFullPrefill(t, session, cut, got);
    const short = [...cut.slice(0, 3), 15, 16];
    const again = await s.generate({ prompt: short, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.match(s.prefixStats, { hits: 1, misses: 2, reusedTokens: 5 }, '3 common tokens < prefixMinReuse: full prefill');
    await matchesFullPrefill(t, session, short, again);
  });
});
