// The prefix cache holds at most prefixCacheBytes and prefixCacheEntries, dropping the least recently stored key
// first; a released key is gone at once. Pure logic (PrefixCache), then through a Sampler.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler, type SampleOutput } from '../../../model/sampler/sampler.js';
import { PrefixCache, type PrefixEntry } from '../../../model/sampler/prefix-cache.js';
import { TINY, tinyWeights } from './tiny.js';

/** An entry of n tokens, one layer of n floats for keys and values: 8n bytes. */
const entry = (n: number): PrefixEntry => ({ tokens: Array.from({ length: n }, (_, i) => i), k: [new Float32Array(n)], v: [new Float32Array(n)], version: 1 });
const keys = (c: PrefixCache, names: string[]): string[] => names.filter((k) => c.has(k));

t.test('the prefix cache keeps to its bounds', async (t) => {
  t.test('bytes and entries bound the cache, oldest out first', async (t) => {
    const c = new PrefixCache(100, 3, 1);
    c.put('a', entry(5)); // 40 bytes
    c.put('b', entry(5));
    t.same(keys(c, ['a', 'b']), ['a', 'b']);
    c.put('c', entry(4)); // 112 > 100: a goes
    t.same(keys(c, ['a', 'b', 'c']), ['b', 'c']);
    t.equal(c.stats.bytes, 72);
    c.put('b', entry(2)); // replaced, now the most recent
    c.put('d', entry(1));
    c.put('e', entry(1)); // 4 entries > 3: c (the oldest now) goes
    t.same(keys(c, ['b', 'c', 'd', 'e']), ['b', 'd', 'e']);
    t.ok(c.stats.bytes <= 100 && c.stats.entries <= 3, `within bounds: ${JSON.stringify(c.stats)}`);
    c.put('big', entry(13)); // 104 bytes alone: never kept, and evicts nothing
    t.same(keys(c, ['b', 'd', 'e', 'big']), ['b', 'd', 'e']);
    c.release('d');
    t.same(keys(c, ['b', 'd', 'e']), ['b', 'e']);
    t.equal(c.stats.bytes, 24);
    t.ok(c.take('b', [0, 1, 9], 1), 'a hit');
    t.notOk(c.has('b'), 'a taken entry leaves the cache (its request stores a longer one when it ends)');
    t.equal(c.take('e', [0, 5], 2), null, 'an entry of another weights version is not used');
  });

  t.test('a sampler keeps at most prefixCacheEntries keys and release drops one', async (t) => {
    const session = await ModelSession.create(TINY, { graphs: ['sample'] });
    const s = new Sampler(session, tinyWeights(5), 1, null, { prefixCacheEntries: 2, prefixMinReuse: 1 });
    const turn1 = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
    const outs: SampleOutput[] = [];
    for (const [i, p] of turn1.entries()) outs.push(await s.generate({ prompt: p, temperature: 0, maxTokens: 4, cacheKey: `ep-${i}` }));
    t.equal(s.prefixStats!.entries, 2);
    const next = (p: number[], o: SampleOutput): number[] => [...p, ...o.tokens, 10];
    await s.generate({ prompt: next(turn1[2]!, outs[2]!), temperature: 0, maxTokens: 4, cacheKey: 'ep-2' });
    t.match(s.prefixStats, { hits: 1, misses: 3 }, 'a kept key is used');
    const p0 = next(turn1[0]!, outs[0]!);
    const o0 = await s.generate({ prompt: p0, temperature: 0, maxTokens: 4, cacheKey: 'ep-0' });
    t.match(s.prefixStats, { hits: 1, misses: 4, entries: 2 }, 'the oldest key was evicted');
    s.release('ep-0');
    await s.generate({ prompt: next(p0, o0), temperature: 0, maxTokens: 4, cacheKey: 'ep-0' });
    t.match(s.prefixStats, { hits: 1, misses: 5 }, 'a released key is gone');
    const bytesPerToken = TINY.layers * 2 * TINY.kvHeads! * (TINY.width / TINY.heads) * 4;
    const bounded = new Sampler(session, tinyWeights(5), 1, null, { prefixCacheBytes: 10 * bytesPerToken, prefixMinReuse: 1 });
    await bounded.generate({ prompt: [1, 2, 3, 4], temperature: 0, maxTokens: 3, cacheKey: 'x' }); // 6 tokens kept
    await bounded.generate({ prompt: [5, 6, 7, 8], temperature: 0, maxTokens: 3, cacheKey: 'y' }); // 12 > 10: x goes
    t.match(bounded.prefixStats, { entries: 1, bytes: 6 * bytesPerToken });
    await bounded.close();
    await s.close();
    await session.release();
  });
});
