// A graceful stop trains the buffered trajectories (the last iteration of a bounded run) before its final
// checkpoint, and acks their messages.
import t from 'tap';
import { Learner, readAccounting } from '../../../actors/learner/index.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { learnerOptions, publishBatch, traj } from './tiny.js';

t.test('buffered on stop: trained, checkpointed, acked', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = tempDir(t, 'spade-learner-');
  // Five batches make an iteration and nothing flushes: the one batch sent stays buffered.
  const learner = await Learner.create({ conn, hostId: 'l', ackWaitMs: config.delivery.ackWaitMs, stateDir }, learnerOptions({ iterationBatches: 5, flushAfterMs: 600_000 }));
  await learner.start();
  await publishBatch(conn, 'b0', [traj('p', [50, 51], 1, 0), traj('q', [52], -1, 0)]);
  const info = () => conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
  while (learner.buffered < 2) await new Promise((r) => setTimeout(r, 20));
  t.equal((await info()).num_ack_pending, 1, 'held unacked');
  t.equal(learner.stats.updates, 0, 'not trained while the iteration is incomplete');
  await learner.stop();
  t.equal(learner.stats.updates, 1, 'trained on stop');
  t.same((await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : [])).sort(), ['p', 'q']);
  t.equal((await info()).num_ack_pending, 0, 'acked after the final checkpoint');
});
