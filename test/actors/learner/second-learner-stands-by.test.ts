// Two hosts run the learner role: one holds the learner lock and trains, the other stands by without publishing,
// and takes over (resuming the same state) when the first drains and releases the lock.
import t from 'tap';
import { createLearnerActor } from '../../../actors/learner/index.js';
import { ActorHost } from '../../../runtime/host.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import type { Learner } from '../../../actors/learner/learner.js';
import { learnerOptions, publishBatch, traj, when } from './tiny.js';

t.test('one learner active, the other takes over on release', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = tempDir(t, 'spade-learner-');
  const opts = learnerOptions({ checkpoints: { dir: stateDir }, batching: { iterationBatches: 1 }, host: { lockTtlMs: 3_000 } });
  const a = createLearnerActor(opts), b = createLearnerActor(opts);
  const hostA = new ActorHost({ conn, config, hostId: 'A', log: () => undefined });
  const hostB = new ActorHost({ conn, config, hostId: 'B', log: () => undefined });
  await hostA.start([() => a], ['learner']);
  await hostB.start([() => b], ['learner']);
  let aStopped = false;
  t.teardown(async () => {
    if (!aStopped) await hostA.stop();
    await hostB.stop();
  });
  t.ok(a.learner(), 'A trains');
  t.equal(b.learner(), null, 'B stands by');

  const aTrained = when(a.events, 'update', () => a.learner()!.stats.last !== undefined);
  await publishBatch(conn, 'b0', [traj('x', [50, 51], 1, 0), traj('y', [52], -1, 0)]);
  await aTrained;
  const takeover = new Promise<Learner>((resolve) => b.events.once('learner', resolve));
  await hostA.stop();
  aStopped = true;
  await takeover;
  t.equal(b.learner()!.stats.origin, 'resume', 'B resumed from the checkpoint A wrote on drain');
  t.equal(b.learner()!.version, 1);
  const bTrained = when(b.events, 'update', () => b.learner()!.stats.last !== undefined);
  await publishBatch(conn, 'b1', [traj('z', [53, 54], 1, 1), traj('w', [55], -1, 1)]);
  await bTrained;
  t.same(b.learner()!.stats.published, [2], 'B continues the version sequence');
});
