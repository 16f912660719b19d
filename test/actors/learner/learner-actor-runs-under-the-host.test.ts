// The learner role under the actor host: it publishes its initial weights, trains a labeled batch, publishes the
// next version, and on the host's drain checkpoints and acks everything it consumed.
import t from 'tap';
import { createLearnerActor, readAccounting } from '../../../actors/learner/index.js';
import { openWeightStores, readPolicyRecord } from '../../../weight-sync/index.js';
import { ActorHost } from '../../../runtime/host.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { learnerOptions, publishBatch, traj, when } from './tiny.js';

t.test('host-driven learner trains, publishes and checkpoints on drain', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = join(tempDir(t, 'spade-run-'), 'learner'); // not there yet, as in a new run directory
  // One batch per iteration here (the config's designsPerIteration would be the default).
  const actor = createLearnerActor(learnerOptions({ checkpoints: { dir: stateDir }, batching: { iterationBatches: 1 }, cadence: { checkpointEvery: 100 } }));
  const host = new ActorHost({ conn, config, hostId: 'h', log: () => undefined });
  await host.start([() => actor], ['learner']);
  let stopped = false;
  t.teardown(() => (stopped ? undefined : host.stop()));
  const { kv } = await openWeightStores(conn);
  t.equal((await readPolicyRecord(kv))!.record!.version, 0, 'initial weights published as version 0');

  const published = when(actor.events, 'update', () => actor.learner()!.stats.published.includes(1));
  await publishBatch(conn, 'b0', [traj('x', [50, 51], 1, 0), traj('y', [52, 53], -1, 0)]);
  await published;
  t.equal((await readPolicyRecord(kv))!.record!.version, 1, 'version 1 after the first update');
  const before = await conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
  t.equal(before.num_ack_pending, 1, 'not acked before a checkpoint covers it');

  await host.stop();
  stopped = true;
  t.ok(existsSync(join(stateDir, 'LATEST')), 'drain wrote a checkpoint');
  const after = await conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
  t.equal(after.num_ack_pending, 0, 'acked after it');
  t.same((await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : [])).sort(), ['x', 'y']);
});
