// Real data path: episodes sampled by the model's Sampler go through the evaluator actor and the learner actor over
// NATS. On-policy data (the sampler runs the learner's own initial weights) must reach the learner with importance
// ratio 1 and nothing clipped, and every labeled trajectory is applied once.
import t from 'tap';
import { createEvaluatorActor } from '../../../actors/evaluator/index.js';
import { createLearnerActor, readAccounting } from '../../../actors/learner/index.js';
import { TrajectoryGroup, type Episode, type Sample } from '../../../actors/loop/messages.js';
import { packFloats, packInts } from '../../../actors/loop/packed.js';
import { ModelSession, Sampler, initParameters } from '../../../model/index.js';
import { ActorHost } from '../../../runtime/host.js';
import { encode } from '../../../runtime/messages.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { acceptedEnv } from '../evaluator/fixtures.js';
import { TINY, learnerOptions, when } from './tiny.js';

t.test('sampled group -> evaluator -> learner: ratio 1, nothing clipped, all applied', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const sampler = new Sampler(session, initParameters(TINY, 0), 0, null, { seed: 11 });
  t.teardown(() => sampler.close());
  const sample = async (prompt: number[], maxTokens: number): Promise<Sample> => {
    const o = await sampler.generate({ prompt, temperature: 1, maxTokens });
    return {
      promptTokens: packInts(prompt), tokens: packInts(o.tokens), logprobs: packFloats(o.logprobs), versions: packInts(o.versions),
      text: o.text, finishReason: o.finishReason,
    };
  };
  const env = { ...acceptedEnv('env-s'), designer: await sample([1, 2, 3, 4], 12) };
  const episodes: Episode[] = [];
  for (const [i, hinted] of [false, false, false, false, true, true, true, true].entries()) {
    const turns = [await sample([1, 10 + i, 20], 5), await sample([1, 10 + i, 20, 30, 31], 4)];
    const ret = hinted ? 1 : [0, 0.5, 1, 0][i]!;
    episodes.push({ trajId: `env-s/e${i}`, hinted, seed: i, turns, rewards: [0, ret], return: ret, terminated: true });
  }

  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = tempDir(t, 'spade-learner-');
  const learner = createLearnerActor(learnerOptions({ checkpoints: { dir: stateDir }, batching: { iterationBatches: 1 }, init: { seed: 0 } }));
  const host = new ActorHost({ conn, config, hostId: 'e2e', log: () => undefined });
  await host.start([(e) => createEvaluatorActor(e), () => learner], ['evaluator', 'learner']);
  t.teardown(() => host.stop());
  const updated = when(learner.events, 'update', () => learner.learner()!.stats.last !== undefined);
  await conn.js.publish(SUBJECTS.trajRaw, encode(TrajectoryGroup, { groupId: 'g-s', env, episodes }), { msgID: 'group:env-s' });

  await updated;
  const report = learner.learner()!.stats.last!;
  t.ok(Math.abs(report.meanRatio - 1) < 1e-3, `mean ratio ${report.meanRatio}`);
  t.equal(report.clipFraction, 0);
  t.equal(report.tisFraction, 0);
  t.equal(report.stalenessMax, 0);
  // The designer's first reward has no baseline yet (advantage 0), and the hinted arm's returns are all 1 (advantage 0):
  // applied without compute, like any zero advantage. Both arms train the agent (agentEpisodes 'all', the default).
  t.equal(report.trajectories, 9, 'designer + four unhinted and four hinted episodes');
  t.equal(learner.learner()!.stats.skipped, 5, 'the designer and the four equal hinted episodes');
  t.equal(report.rows, 8, 'two turns per unhinted episode');
  const applied = (await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
  t.same(applied.sort(), ['env-s/designer', ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `env-s/e${i}`)]);
});
