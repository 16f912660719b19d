// An incomplete iteration is not flushed while the pipeline still holds work that can complete it (a slow batch is
// not a lost one); once nothing is in flight it is flushed after the quiet period. The actor's counter reads the
// pipeline consumers of a real server.
import t from 'tap';
import { Learner, type UpdateReport } from '../../../actors/learner/index.js';
import { pipelineWorkInFlight } from '../../../actors/learner/work-in-flight.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { learnerOptions, publishBatch, traj } from './tiny.js';

t.test('a quiet incomplete iteration waits for work in flight, then flushes', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  let inFlight = 1;
  const updates: UpdateReport[] = [];
  const logs: string[] = [];
  const learner = await Learner.create({
    conn, hostId: 'l', ackWaitMs: config.delivery.ackWaitMs, stateDir: tempDir(t, 'spade-learner-'),
    workInFlight: async () => inFlight, onUpdate: (r) => updates.push(r), log: (l) => logs.push(l),
  }, learnerOptions({ iterationBatches: 2, flushAfterMs: 150, eta: 100 }));
  t.teardown(() => learner.stop());
  await learner.start();
  await publishBatch(conn, 'b0', [traj('a', [50, 51], 1, 0), traj('b', [52, 53], -1, 0)]);
  await new Promise((r) => setTimeout(r, 800)); // several quiet periods
  t.equal(updates.length, 0, 'no flush while work is in flight');
  await publishBatch(conn, 'b1', [traj('c', [54, 55], 1, 0), traj('d', [56, 57], -1, 0)]);
  while (updates.length < 1) await new Promise((r) => setTimeout(r, 20));
  t.equal(updates[0]!.trajectories, 4, 'the slow batch joined its iteration: one update of both batches');

  // A new iteration, incomplete, with nothing in flight: flushed after the quiet period.
  inFlight = 0;
  const body = (id: string) => [traj(`${id}-x`, [58, 59], 1, 1), traj(`${id}-y`, [60, 61], -1, 1)];
  await publishBatch(conn, 'b2', body('b2'), 1);
  const t0 = Date.now();
  while (updates.length < 2) await new Promise((r) => setTimeout(r, 20));
  t.ok(Date.now() - t0 >= 100, 'flushed after the quiet period');
  t.equal(updates[1]!.trajectories, 2, 'the lone batch was trained');
  t.ok(logs.some((l) => /flushing 2 trajectories .*iteration 1, 1 of 2 batches.*no work in flight/.test(l)), 'the flush is logged with its reason');
});

t.test('the pipeline counter sees pending and unacked jobs', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const count = pipelineWorkInFlight(conn);
  t.equal(await count(), 0, 'an empty pipeline');
  await conn.js.publish(SUBJECTS.jobDesign, new Uint8Array([1]));
  await conn.js.publish(SUBJECTS.trajRaw, new Uint8Array([2]));
  t.equal(await count(), 2, 'a design job and a raw trajectory group');
});
