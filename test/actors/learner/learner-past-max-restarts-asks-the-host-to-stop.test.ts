// A learner that fails more often than loop.learner.host.maxRestarts allows is not started again: the actor asks the host
// to stop, naming the failure.
import t from 'tap';
import type { ThreadTrainer } from '../../../actors/learner/trainer-thread.js';
import { learnerOnFreshServer, publishBatch, traj } from './tiny.js';

t.test('past maxRestarts the actor asks the host to stop, naming the failure', async (t) => {
  const { conn, actor, shutdowns, shutdownRequested } = await learnerOnFreshServer(t, { batching: { iterationBatches: 1 }, host: { maxRestarts: 0 } });
  await (actor.learner()!.trainer as ThreadTrainer).kill();
  await publishBatch(conn, 'b0', [traj('a', [50, 51], 1, 0), traj('b', [52, 53], -1, 0)]);
  await shutdownRequested;
  t.match(shutdowns[0], /learner.*failed 1 time.*maxRestarts = 0.*trainer thread/);
});
