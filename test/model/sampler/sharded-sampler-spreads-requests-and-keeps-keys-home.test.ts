// ShardedSampler: concurrent requests spread over its shards and give what one sampler gives (greedy), a keyed
// request goes back to the shard holding its prefix (a hit there, none elsewhere), release goes to that shard, new
// weights reach every shard or none, and startThreads runs real sampler threads with a share of maxBatch each.
import t from 'tap';
import { validateDecoderConfig } from '../../../model/decoder-config.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { ShardedSampler } from '../../../model/sampler/shards.js';
import { ModelSession } from '../../../model/session.js';
import { TINY, tinyWeights } from './tiny.js';

t.test('requests spread, keys stay home, weights reach all', async (t) => {
  const sessions = await Promise.all([0, 1, 2].map(() => ModelSession.create(TINY, { graphs: ['sample'] })));
  const weights = tinyWeights(1);
  const [a, b, lone] = sessions.map((s, i) => new Sampler(s, weights, 3, null, { seed: i, stopTokens: [25] }));
  const sharded = new ShardedSampler([a!, b!]);
  t.teardown(async () => {
    await sharded.close();
    await lone!.close();
    for (const s of sessions) await s.release();
  });

  const prompts = [[3, 1, 4], [7, 7], [1, 2, 3, 4, 5], [9, 8], [2, 2, 2], [5, 4, 3, 2]];
  const outs = await Promise.all(prompts.map((prompt) => sharded.generate({ prompt, temperature: 0, maxTokens: 6 })));
  t.ok(a!.steps > 0 && b!.steps > 0, `both shards decoded (${a!.steps} and ${b!.steps} steps)`);
  for (const [i, prompt] of prompts.entries()) {
    t.same(outs[i]!.tokens, (await lone!.generate({ prompt, temperature: 0, maxTokens: 6 })).tokens, `greedy tokens of ${JSON.stringify(prompt)} are one sampler's`);
  }
  t.equal(sharded.steps, a!.steps + b!.steps, 'steps add up');
  t.equal(sharded.phases()['decode']?.calls, a!.phases()['decode']!.calls + b!.phases()['decode']!.calls, 'phases add up');

  // Two episodes at once: each one's second turn goes back to the shard that kept its first turn's prefix.
  const turn1 = await Promise.all(['ep-1', 'ep-2'].map((cacheKey, i) => sharded.generate({ prompt: [1, 2, 3, 4, 5, 6, 7, 8, 9 + i], temperature: 0, maxTokens: 3, cacheKey })));
  const hitsBefore = [a!.prefixStats!.hits, b!.prefixStats!.hits];
  // In the other order, so that routing to the least busy shard alone would send each to the other one's shard.
  await Promise.all([1, 0].map((i) => sharded.generate({ prompt: [1, 2, 3, 4, 5, 6, 7, 8, 9 + i, ...turn1[i]!.tokens, 11], temperature: 0, maxTokens: 2, cacheKey: `ep-${i + 1}` })));
  t.same([a!.prefixStats!.hits - hitsBefore[0]!, b!.prefixStats!.hits - hitsBefore[1]!], [1, 1], 'each second turn hit its prefix on its own shard');
  sharded.release('ep-1');
  sharded.release('ep-2');
  sharded.release('never-seen'); // nothing to drop
  t.same([a!.prefixStats!.entries, b!.prefixStats!.entries], [0, 0], 'release dropped each key on its shard');

  sharded.setWeights(tinyWeights(2), 4);
  t.same([a!.policyVersion, b!.policyVersion, sharded.policyVersion], [4, 4, 4], 'every shard moved');
  t.throws(() => sharded.setWeights(tinyWeights(3), 4), { name: 'StaleWeightsError' });
  t.same([a!.policyVersion, b!.policyVersion], [4, 4], 'a stale version moved none');
  t.throws(() => new ShardedSampler([]), { name: 'ModelOptionError' });
  await t.rejects(ShardedSampler.startThreads(0, { config: validateDecoderConfig(TINY), weights, version: 1 }), { name: 'ModelOptionError' });

  const threads = await ShardedSampler.startThreads(2, { config: validateDecoderConfig(TINY), weights, version: 1, sampler: { maxBatch: 3, stopTokens: [25] } });
  t.teardown(() => threads.close());
  const viaThreads = await Promise.all(prompts.map((prompt) => threads.generate({ prompt, temperature: 0, maxTokens: 6 })));
  t.same(viaThreads.map((o) => o.tokens), outs.map((o) => o.tokens), 'sampler threads give the same greedy tokens');
  t.ok(threads.shards.every((s) => s.steps > 0), 'both threads decoded');
  t.ok(threads.steps >= 2 * 5, `each thread holds at most ceil(3 / 2) = 2 rows, so 6 requests took >= 10 steps (${threads.steps})`);
});
