// A learner whose update fails (here: its trainer thread dies) stops like a crash; the actor starts a new one from
// the last checkpoint, which takes the unacked trajectories again, so every trajectory is still applied exactly
// once. Past loop.learner.maxRestarts the actor asks the host to stop instead.
import t from 'tap';
import { join } from 'node:path';
import { createLearnerActor, readAccounting, type ThreadTrainer } from '../../../actors/learner/index.js';
import { ActorHost } from '../../../runtime/host.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { FAST_DELIVERY, connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { learnerOptions, publishBatch, traj } from './tiny.js';

const until = async (cond: () => boolean, what: string, ms = 30_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

t.test('a dead trainer thread: the learner restarts from its checkpoint and loses nothing', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], FAST_DELIVERY);
  const conn = await connected(t, config);
  const stateDir = join(tempDir(t, 'spade-run-'), 'learner');
  const actor = createLearnerActor(learnerOptions({ stateDir, iterationBatches: 1, checkpointEvery: 1, eta: 1000 }));
  const shutdowns: string[] = [];
  const host = new ActorHost({ conn, config, hostId: 'h', log: () => undefined, onShutdownRequest: (r) => shutdowns.push(r) });
  await host.start([() => actor], ['learner']);
  t.teardown(() => host.stop());

  await publishBatch(conn, 'b0', [traj('a', [50, 51], 1, 0), traj('b', [52, 53], -1, 0)]);
  await until(() => actor.learner()?.stats.updates === 1, 'the first update');
  // Its checkpoint is written once the batch is acked.
  while ((await conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'))).num_ack_pending > 0) await new Promise((r) => setTimeout(r, 20));
  const first = actor.learner()!;
  t.equal(first.trainer.where, 'thread');
  await (first.trainer as ThreadTrainer).kill();
  await publishBatch(conn, 'b1', [traj('c', [54, 55], 1, 0), traj('d', [56, 57], -1, 0)]);
  await until(() => actor.learner() !== first && actor.learner()!.stats.updates >= 2, 'a restarted learner that trained');
  const second = actor.learner()!;
  t.equal(second.stats.origin, 'resume', `the new learner resumed from the checkpoint of update 1 (${second.stats.origin})`);
  await publishBatch(conn, 'b2', [traj('e', [58, 59], 1, 0), traj('f', [60, 61], -1, 0)]);
  const applied = async (): Promise<string[]> => (await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
  const end = Date.now() + 30_000;
  while ((await applied()).length < 6 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  t.same([...(await applied())].sort(), ['a', 'b', 'c', 'd', 'e', 'f'], `each trajectory applied once: ${(await applied()).join(' ')}`);
  t.same(shutdowns, [], 'no shutdown while restarts are left');
});

t.test('past maxRestarts the actor asks the host to stop, naming the failure', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], FAST_DELIVERY);
  const conn = await connected(t, config);
  const stateDir = join(tempDir(t, 'spade-run-'), 'learner');
  const actor = createLearnerActor(learnerOptions({ stateDir, iterationBatches: 1, maxRestarts: 0 }));
  const shutdowns: string[] = [];
  const host = new ActorHost({ conn, config, hostId: 'h', log: () => undefined, onShutdownRequest: (r) => shutdowns.push(r) });
  await host.start([() => actor], ['learner']);
  t.teardown(() => host.stop());
  await (actor.learner()!.trainer as ThreadTrainer).kill();
  await publishBatch(conn, 'b0', [traj('a', [50, 51], 1, 0), traj('b', [52, 53], -1, 0)]);
  await until(() => shutdowns.length > 0, 'a shutdown request');
  t.match(shutdowns[0], /learner.*failed 1 time.*maxRestarts = 0.*trainer thread/);
});
