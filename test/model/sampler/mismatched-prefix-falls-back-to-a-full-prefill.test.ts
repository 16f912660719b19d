// A keyed request whose prompt does not start with the key's cached tokens (another sequence, or a history cut to
// fit the budget) prefills in full, or from the common prefix only, and samples what a full prefill samples.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler, type SampleOutput } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

const first = [1, 2, 3, 4, 5, 6, 7, 8];

async function fullPrefill(session: ModelSession, weights: Map<string, Float32Array>, prompt: number[]): Promise<SampleOutput> {
  const s = new Sampler(session, weights, 1, null, { prefixCacheBytes: 0 });
  const o = await s.generate({ prompt, temperature: 0, maxTokens: 6 });
  await s.close();
  return o;
}

const maxDiff = (got: SampleOutput, want: SampleOutput): number => Math.max(...got.logprobs.map((lp, j) => Math.abs(lp - want.logprobs[j]!)));

t.test('a prompt that does not extend the cached one falls back to a full prefill', async (t) => {
  t.test('a prompt that differs from the first token prefills in full', async (t) => {
    const session = await ModelSession.create(TINY, { graphs: ['sample'] });
    const weights = tinyWeights(5);
    const s = new Sampler(session, weights, 1, null, { prefixMinReuse: 4 });
    await s.generate({ prompt: first, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    const other = [9, ...first.slice(1), 10, 11];
    const got = await s.generate({ prompt: other, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.match(s.prefixStats, { hits: 0, misses: 2, reusedTokens: 0 }, 'nothing reused');
    const wantGot = await fullPrefill(session, weights, other);
    t.same(got.tokens, wantGot.tokens, 'tokens equal a full prefill');
    t.ok(maxDiff(got, wantGot) < 1e-4, `log-probs equal a full prefill (max diff ${maxDiff(got, wantGot).toExponential(2)})`);
    await s.close();
    await session.release();
  });

  t.test('a prompt that shares only its head reuses the head, or nothing when shorter than prefixMinReuse', async (t) => {
    const session = await ModelSession.create(TINY, { graphs: ['sample'] });
    const weights = tinyWeights(5);
    const s = new Sampler(session, weights, 1, null, { prefixMinReuse: 4 });
    // A truncated history: the head stays, an old turn is dropped.
    await s.generate({ prompt: first, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    const cut = [...first.slice(0, 5), 12, 13, 14];
    const got = await s.generate({ prompt: cut, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.match(s.prefixStats, { hits: 1, reusedTokens: 5 }, 'the common head of 5 tokens was reused');
    const wantGot = await fullPrefill(session, weights, cut);
    t.same(got.tokens, wantGot.tokens, 'tokens equal a full prefill');
    t.ok(maxDiff(got, wantGot) < 1e-4, `log-probs equal a full prefill (max diff ${maxDiff(got, wantGot).toExponential(2)})`);
    const short = [...cut.slice(0, 3), 15, 16];
    const again = await s.generate({ prompt: short, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.match(s.prefixStats, { hits: 1, misses: 2, reusedTokens: 5 }, '3 common tokens < prefixMinReuse: full prefill');
    const wantAgain = await fullPrefill(session, weights, short);
    t.same(again.tokens, wantAgain.tokens, 'tokens equal a full prefill');
    t.ok(maxDiff(again, wantAgain) < 1e-4, `log-probs equal a full prefill (max diff ${maxDiff(again, wantAgain).toExponential(2)})`);
    await s.close();
    await session.release();
  });
});
