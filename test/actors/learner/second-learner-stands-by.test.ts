// Two hosts run the learner role: one holds the learner lock and trains, the other stands by without publishing,
// and takes over (resuming the same state) when the first drains and releases the lock.
import t from 'tap';
import { createLearnerActor } from '../../../actors/learner/index.js';
import { ActorHost } from '../../../runtime/host.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { learnerOptions, publishBatch, traj } from './tiny.js';

t.test('one learner active, the other takes over on release', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = tempDir(t, 'spade-learner-');
  const opts = learnerOptions({ stateDir, iterationBatches: 1, lockTtlMs: 3_000 });
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

  await publishBatch(conn, 'b0', [traj('x', [50, 51], 1, 0), traj('y', [52], -1, 0)]);
  while (!a.learner()!.stats.last) await new Promise((r) => setTimeout(r, 20));
  await hostA.stop();
  aStopped = true;
  while (!b.learner()) await new Promise((r) => setTimeout(r, 20));
  t.equal(b.learner()!.stats.origin, 'resume', 'B resumed from the checkpoint A wrote on drain');
  t.equal(b.learner()!.version, 1);
  await publishBatch(conn, 'b1', [traj('z', [53, 54], 1, 1), traj('w', [55], -1, 1)]);
  while (!b.learner()!.stats.last) await new Promise((r) => setTimeout(r, 20));
  t.same(b.learner()!.stats.published, [2], 'B continues the version sequence');
});
