// The learner and the samplers agree on the model: starting from the same loop.policy (fresh init here), the
// policy service's samples are on-policy for the learner (ratio 1), and the versions the learner publishes pass
// the policy service's weight checks and reach its sampler.
import t from 'tap';
import { learnerModelFrom } from '../../../actors/learner/learner-model.js';
import { mergeLearnerOptions } from '../../../actors/learner/options.js';
import { validateLoopOptions } from '../../../actors/loop/options.js';
import { PolicyService } from '../../../actors/loop/policy/policy-service.js';
import { unpackInts } from '../../../actors/loop/packed.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, when } from './tiny.js';

t.test('policy service samples -> learner update -> new version in the policy service', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const { policy } = validateLoopOptions({
    policy: { checkpoint: null, tokenizer: 'bytes', init: { layers: 1, width: 32, heads: 2, contextLength: 64, seed: 5 }, threads: 1 },
  });
  const { actor, learner: hosted } = await hostedLearner(t, conn, config, mergeLearnerOptions(learnerOptions({ batching: { iterationBatches: 1 }, checkpoints: { dir: tempDir(t, 'spade-learner-') } }), learnerModelFrom(policy)));
  const learner = hosted();
  const service = await PolicyService.open({ policy, conn });
  t.teardown(() => service.close());
  t.equal(service.version, 0);

  const samples = [await service.sample([1, 65, 66], { maxTokens: 6, temperature: 1, topP: 1 }), await service.sample([1, 67], { maxTokens: 6, temperature: 1, topP: 1 })];
  const updated = when(actor.events, 'update', () => learner.stats.last !== undefined); // set just after the publish
  await publishBatch(conn, 'b0', samples.map((s, i) => ({ trajId: `t${i}`, role: 'agent' as const, samples: [s], advantage: i === 0 ? 1 : -1, reward: 0 })));
  await service.waitForVersion(1);
  await updated;
  const report = learner.stats.last!;
  t.ok(Math.abs(report.meanRatio - 1) < 1e-3, `on-policy for the learner (mean ratio ${report.meanRatio})`);
  const after = await service.sample([1, 65, 66], { maxTokens: 3, temperature: 1, topP: 1 });
  t.same([...new Set(unpackInts(after.versions))], [1], 'the sampler runs the learner\'s version 1');
});
