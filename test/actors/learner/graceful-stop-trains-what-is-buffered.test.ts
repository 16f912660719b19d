// A graceful stop trains the buffered trajectories (the last iteration of a bounded run) before its final
// checkpoint, and acks their messages.
import t from 'tap';
import { readAccounting } from '../../../actors/learner/index.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, traj, when } from './tiny.js';

t.test('buffered on stop: trained, checkpointed, acked', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = tempDir(t, 'spade-learner-');
  // Five batches make an iteration and nothing flushes: the one batch sent stays buffered.
  const { learner, stop } = await hostedLearner(t, conn, config, learnerOptions({ checkpoints: { dir: stateDir }, batching: { iterationBatches: 5, flushAfterMs: 600_000 } }));
  const buffered = when(learner(), 'received', () => learner().buffered >= 2);
  await publishBatch(conn, 'b0', [traj('p', [50, 51], 1, 0), traj('q', [52], -1, 0)]);
  const info = () => conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
  await buffered;
  t.equal((await info()).num_ack_pending, 1, 'held unacked');
  t.equal(learner().stats.updates, 0, 'not trained while the iteration is incomplete');
  const l = learner();
  await stop();
  t.equal(l.stats.updates, 1, 'trained on stop');
  t.same((await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : [])).sort(), ['p', 'q']);
  t.equal((await info()).num_ack_pending, 0, 'acked after the final checkpoint');
});
