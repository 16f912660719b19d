// An update that leaves infinite or NaN weights (here: a learning rate of 1e300) is never published: the publisher
// refuses it before uploading, the learner stops with LearnerDivergedError naming the tensor, writes no checkpoint
// of it, acks nothing, and asks the host to stop instead of restarting into the same divergence.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { createLearnerActor } from '../../../actors/learner/index.js';
import type { Learner } from '../../../actors/learner/learner.js';
import { ActorHost } from '../../../runtime/host.js';
import { STREAMS, durableName } from '../../../runtime/subjects.js';
import { WeightPublisher } from '../../../weight-sync/index.js';
import { parameterShapes, validateDecoderConfig } from '../../../model/index.js';
import { FAST_DELIVERY, connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { TINY, learnerOptions, publishBatch, traj } from './tiny.js';

t.test('a diverged update stops the learner without publishing', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url], FAST_DELIVERY);
  const conn = await connected(t, config);
  const stateDir = join(tempDir(t, 'spade-run-'), 'learner');
  const actor = createLearnerActor(learnerOptions({
    checkpoints: { dir: stateDir },
    batching: { iterationBatches: 1 },
    cadence: { checkpointEvery: 1 },
    host: { maxRestarts: 3 },
    adamw: { schedule: { peakLr: 1e300, warmupSteps: 0, decaySteps: 10, minLr: 1e300 } },
  }));
  const learners: Learner[] = [];
  actor.events.on('learner', (l: Learner) => learners.push(l));
  let requested!: (reason: string) => void;
  const shutdown = new Promise<string>((resolve) => (requested = resolve));
  const host = new ActorHost({ conn, config, hostId: 'h', log: () => undefined, onShutdownRequest: (r) => requested(r) });
  await host.start([() => actor], ['learner']);
  t.teardown(() => host.stop());
  const failures: Error[] = [];
  const first = actor.learner()!;
  first.on('crashed', () => failures.push(new Error(first.stats.error ?? 'no error recorded')));

  await publishBatch(conn, 'b0', [traj('a', [50, 51], 1, 0), traj('b', [52, 53], -1, 0)]);
  const reason = await shutdown;
  t.match(reason, /learner diverged: the weights of version 1 \(not published\) hold (NaN|-?Infinity) \(tensor "[\w.]+", element \d+\); the learner stops/);
  t.ok(first.stopped, 'the learner stopped');
  t.match(first.stats.error, /learner diverged/);
  t.same(learners.length, 1, 'not restarted: a restart would replay the same batch into the same divergence');

  const publisher = new WeightPublisher(conn, { modelConfig: validateDecoderConfig(TINY), shapes: parameterShapes(TINY) });
  t.match(await publisher.current(), { version: 0 }, 'the published version is still the initial one');
  t.same((await readdir(stateDir)).filter((n) => n.startsWith('ckpt-')), [], 'no checkpoint of the diverged weights');
  const info = await conn.jsm.consumers.info(STREAMS.trajectories, durableName('learner'));
  t.equal(info.ack_floor.stream_seq, 0, 'the batch was not acked: it stays for a learner that can train it');
  t.equal(failures.length, 1, 'it crashed once');
});
