// loop.policy.shards: the policy service decodes on that many sampler threads, each taking a share of the requests,
// and new weights reach them all.
import t from 'tap';
import { PolicyService } from '../../../../actors/loop/policy/policy-service.js';
import { unpackInts } from '../../../../actors/loop/packed.js';
import { agentPrompt } from '../../../../actors/loop/prompts.js';
import { initParameters } from '../../../../model/decoder.js';
import { ShardedSampler } from '../../../../model/sampler/shards.js';
import { TINY_POLICY } from './tiny-loop.js';

t.test('two sampler shards serve the policy', async (t) => {
  const lines: string[] = [];
  const policy = await PolicyService.open({ policy: { ...TINY_POLICY, shards: 2, threads: 0 }, log: (l) => lines.push(l) });
  t.teardown(() => policy.close());
  t.ok(policy.sampler instanceof ShardedSampler, 'a sharded sampler');
  const shards = (policy.sampler as ShardedSampler).shards;
  t.equal(shards.length, 2);
  t.match(lines.join('\n'), /2 sampler shards/, 'the start line says so');
  const prompt = agentPrompt(policy.format, { description: 'Reach the target.', history: [], observation: 'Target 23. Total 0.', maxPromptTokens: 300 });
  const outs = await Promise.all([1, 2, 3, 4].map(() => policy.sample(prompt, { maxTokens: 6, temperature: 1, topP: 1 })));
  t.ok(outs.every((o) => unpackInts(o.tokens).length >= 1), 'every request sampled');
  t.ok(shards.every((s) => s.steps > 0), `both shards decoded (${shards.map((s) => s.steps).join(', ')} steps)`);
  policy.setWeights(initParameters(policy.config, 9), 2);
  const after = await Promise.all([1, 2].map(() => policy.sample(prompt, { maxTokens: 3, temperature: 1, topP: 1 })));
  t.ok(after.every((o) => [...unpackInts(o.versions)].every((v) => v === 2)), 'both shards sample with the new weights');
});
