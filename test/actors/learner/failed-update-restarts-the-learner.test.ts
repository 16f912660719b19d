// A learner whose update fails (here: its trainer thread dies) stops like a crash; the actor starts a new one from
// the last checkpoint, which takes the unacked trajectories again, so every trajectory is still applied exactly once.
import t from 'tap';
import { readAccounting } from '../../../actors/learner/index.js';
import type { ThreadTrainer } from '../../../actors/learner/trainer-thread.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { learnerOnFreshServer, publishBatch, traj, when } from './tiny.js';

t.test('a dead trainer thread: the learner restarts from its checkpoint and loses nothing', async (t) => {
  const { conn, actor, stateDir, shutdowns } = await learnerOnFreshServer(t, { batching: { iterationBatches: 1, eta: 1000 }, cadence: { checkpointEvery: 1 } });
  const firstUpdate = when(actor.events, 'update', () => actor.learner()!.stats.updates === 1);
  await publishBatch(conn, 'b0', [traj('a', [50, 51], 1, 0), traj('b', [52, 53], -1, 0)]);
  await firstUpdate;
  // Its checkpoint came before the update's report, and the ack (confirmed by the server) right after the checkpoint.
  t.equal((await conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'))).num_ack_pending, 0, 'acked once checkpointed');
  const first = actor.learner()!;
  t.equal(first.trainer.where, 'thread');
  await (first.trainer as ThreadTrainer).kill();
  const restarted = when(actor.events, 'update', () => actor.learner() !== first && actor.learner()!.stats.updates >= 2);
  await publishBatch(conn, 'b1', [traj('c', [54, 55], 1, 0), traj('d', [56, 57], -1, 0)]);
  await restarted;
  const second = actor.learner()!;
  t.equal(second.stats.origin, 'resume', `the new learner resumed from the checkpoint of update 1 (${second.stats.origin})`);
  const applied = async (): Promise<string[]> => (await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
  const all = when(actor.events, 'update', async () => (await applied()).length >= 6);
  await publishBatch(conn, 'b2', [traj('e', [58, 59], 1, 0), traj('f', [60, 61], -1, 0)]);
  await all;
  t.same([...(await applied())].sort(), ['a', 'b', 'c', 'd', 'e', 'f'], `each trajectory applied once: ${(await applied()).join(' ')}`);
  t.same(shutdowns, [], 'no shutdown while restarts are left');
});
