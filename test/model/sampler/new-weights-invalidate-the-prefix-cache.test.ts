// Cached keys/values were computed with the weights of their time: new weights drop them, a turn after the swap
// prefills in full with the new weights, and a generation that ran across a swap keeps nothing.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

const prompt = [1, 2, 3, 4, 5, 6];

t.test('new weights invalidate the prefix cache', async (t) => {
  t.test('a swap clears the cache and the next turn equals a full prefill with the new weights', async (t) => {
    const session = await ModelSession.create(TINY, { graphs: ['sample'] });
    const s = new Sampler(session, tinyWeights(5), 1, null, { prefixMinReuse: 1 });
    const o1 = await s.generate({ prompt, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.equal(s.prefixStats!.entries, 1, 'turn 1 kept');
    s.setWeights(tinyWeights(6), 2);
    const next = [...prompt, ...o1.tokens, 20];
    const got = await s.generate({ prompt: next, temperature: 0, maxTokens: 6, cacheKey: 'ep' });
    t.match(s.prefixStats, { hits: 0, misses: 2 }, 'turn 2 found nothing to reuse');
    t.same(got.versions, [2, 2, 2, 2, 2, 2]);
    const fresh = new Sampler(session, tinyWeights(6), 2, null, { prefixCacheBytes: 0 });
    const want = await fresh.generate({ prompt: next, temperature: 0, maxTokens: 6 });
    t.same(got.tokens, want.tokens, 'tokens equal a full prefill with the new weights');
    t.ok(Math.max(...got.logprobs.map((lp, j) => Math.abs(lp - want.logprobs[j]!))) < 1e-4, 'log-probs too');
    await fresh.close();
    await s.close();
    await session.release();
  });

  t.test('a generation that spans a swap is not kept', async (t) => {
    const session = await ModelSession.create(TINY, { graphs: ['sample'] });
    const s = new Sampler(session, tinyWeights(5), 1, null, { prefixMinReuse: 1 });
    s.onStep = (step) => { if (step === 2) s.setWeights(tinyWeights(6), 2); };
    const o = await s.generate({ prompt, temperature: 0, maxTokens: 8, cacheKey: 'ep' });
    t.ok(o.versions.includes(1) && o.versions.includes(2), 'its tokens came from both versions');
    t.equal(s.prefixStats!.entries, 0, 'nothing kept');
    await s.close();
    await session.release();
  });
});
