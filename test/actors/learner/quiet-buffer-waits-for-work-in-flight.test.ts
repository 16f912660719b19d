// An incomplete iteration is not flushed while the pipeline still holds work that can complete it (a slow batch is
// not a lost one); once nothing is in flight it is flushed after the quiet period.
import t from 'tap';
import type { UpdateReport } from '../../../actors/learner/index.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, traj, when } from './tiny.js';

t.test('a quiet incomplete iteration waits for work in flight, then flushes', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  let inFlight = 1;
  let asked = 0;
  const updates: UpdateReport[] = [];
  const logs: string[] = [];
  const { actor } = await hostedLearner(t, conn, config, learnerOptions({ checkpoints: { dir: tempDir(t, 'spade-learner-') }, batching: { iterationBatches: 2, flushAfterMs: 150, eta: 100 } }), {
    workInFlight: async () => (asked++, actor.events.emit('asked'), inFlight), log: (l) => logs.push(l),
  });
  actor.events.on('update', (r: UpdateReport) => updates.push(r));
  const t0 = Date.now();
  await publishBatch(conn, 'b0', [traj('a', [50, 51], 1, 0), traj('b', [52, 53], -1, 0)]);
  // Each question comes after a full quiet period: three of them are several quiet periods without a flush.
  await when(actor.events, 'asked', () => asked >= 3);
  t.ok(Date.now() - t0 >= 3 * 150, 'three quiet periods passed');
  t.equal(updates.length, 0, 'no flush while work is in flight');
  await publishBatch(conn, 'b1', [traj('c', [54, 55], 1, 0), traj('d', [56, 57], -1, 0)]);
  await when(actor.events, 'update', () => updates.length >= 1);
  t.equal(updates[0]!.trajectories, 4, 'the slow batch joined its iteration: one update of both batches');

  // A new iteration, incomplete, with nothing in flight: flushed after the quiet period.
  inFlight = 0;
  const body = (id: string) => [traj(`${id}-x`, [58, 59], 1, 1), traj(`${id}-y`, [60, 61], -1, 1)];
  const t1 = Date.now();
  await publishBatch(conn, 'b2', body('b2'), 1);
  await when(actor.events, 'update', () => updates.length >= 2);
  t.ok(Date.now() - t1 >= 100, 'flushed after the quiet period');
  t.equal(updates[1]!.trajectories, 2, 'the lone batch was trained');
  t.ok(logs.some((l) => /flushing 2 trajectories .*iteration 1, 1 of 2 batches.*no work in flight/.test(l)), 'the flush is logged with its reason');
});
