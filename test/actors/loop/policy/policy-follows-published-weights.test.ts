// With weight sync on, the policy service follows the versions a learner publishes over NATS: samples taken after
// the swap carry the new version and come from the new weights.
import t from 'tap';
import { PolicyService } from '../../../../actors/loop/policy/policy-service.js';
import { unpackInts } from '../../../../actors/loop/packed.js';
import { initParameters, parameterShapes } from '../../../../model/decoder.js';
import { WeightPublisher } from '../../../../weight-sync/index.js';
import { connected, natsServer, testConfig } from '../../../helpers/nats.js';
import { TINY_POLICY } from './tiny-loop.js';

t.setTimeout(60_000);

t.test('published weights reach the sampler', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const policy = await PolicyService.open({ policy: { ...TINY_POLICY, weightSync: true }, conn });
  t.teardown(() => policy.close());
  const model = policy.config;
  const prompt = [policy.format.prompt([], 'agent')[0]!, ...policy.format.encode('Target 23.')]; // <|bos|> and the text
  const before = await policy.sample(prompt, { maxTokens: 6, temperature: 0, topP: 1 });
  t.same([...new Set(unpackInts(before.versions))], [0]);

  // Weights that differ strongly from the initial ones, so greedy output changes with them.
  const w = initParameters(model, 77);
  for (const [n, a] of w) if (!n.includes('norm')) for (let i = 0; i < a.length; i++) a[i] = a[i]! * 30;
  const publisher = new WeightPublisher(conn, { modelConfig: model, shapes: parameterShapes(model) });
  await publisher.publish(w, { version: 1, step: 10 });
  await policy.waitForVersion(1);
  const after = await policy.sample(prompt, { maxTokens: 6, temperature: 0, topP: 1 });
  t.same([...new Set(unpackInts(after.versions))], [1], 'samples after the swap carry version 1');
  t.notSame([...unpackInts(after.tokens)], [...unpackInts(before.tokens)], 'and come from the new weights');
  await t.rejects(PolicyService.open({ policy: TINY_POLICY }).then(async (p) => { try { await p.waitForVersion(5); } finally { await p.close(); } }), { code: 'POLICY' }, 'without weight sync a later version is an error, not a hang');
});
