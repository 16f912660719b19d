// Staleness admission over NATS: with η = 2 a trajectory 3 versions old is dropped and counted while 0..2 are
// trained (a zero-advantage one without compute); with η = 0 only trajectories of the current version are accepted,
// also after the version moves on.
import t, { type Test } from 'tap';
import { readAccounting, type UpdateReport } from '../../../actors/learner/index.js';
import { stalenessQuantile } from '../../../actors/learner/learner-metrics.js';
import { WeightPublisher } from '../../../weight-sync/index.js';
import { initParameters, validateDecoderConfig, parameterShapes } from '../../../model/index.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { TINY, hostedLearner, learnerOptions, publishBatch, traj } from './tiny.js';

/** A server whose policy KV already holds version 5, so the learner starts at 6 (it republishes past what it finds). */
async function setup(t: Test, eta: number, minibatchTrajectories: number) {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const cfg = validateDecoderConfig(TINY);
  await new WeightPublisher(conn, { modelConfig: cfg, shapes: parameterShapes(cfg) }).publish(initParameters(TINY, 1), { version: 5, step: 0 });
  const stateDir = tempDir(t, 'spade-learner-');
  const updates: UpdateReport[] = [];
  let next: (() => void) | null = null;
  const { actor, learner: hosted } = await hostedLearner(t, conn, config, learnerOptions({ checkpoints: { dir: stateDir }, batching: { eta, minibatchTrajectories, flushAfterMs: 60_000 } }));
  actor.events.on('update', (r: UpdateReport) => (updates.push(r), next?.()));
  const learner = hosted();
  const nextUpdate = () => new Promise<void>((resolve) => (next = resolve));
  return { conn, learner, stateDir, updates, nextUpdate };
}

t.test('staleness admission drops trajectories older than eta versions', async (t) => {
  t.test('eta = 2: lag 3 dropped and counted, lags 0..2 applied', async (t) => {
    const { conn, learner, stateDir, updates, nextUpdate } = await setup(t, 2, 4);
    t.equal(learner.version, 6, 'learner version moved past the one in KV');
    const done = nextUpdate();
    await publishBatch(conn, 'b1', [traj('v6', [50, 51], 1, 6), traj('v5', [52, 53], -1, 5), traj('v4', [54], 1, 4), traj('v3', [55], 1, 3), traj('z', [56], 0, 6)]);
    await done;
    t.equal(learner.stats.droppedStale, 1);
    t.equal(learner.stats.dropped, 1);
    t.equal(learner.stats.skipped, 1, 'the zero-advantage one is applied without compute');
    t.equal(updates[0]!.trajectories, 4);
    t.equal(updates[0]!.rows, 3, 'three rows computed');
    t.equal(updates[0]!.stalenessMax, 2, 'never above eta');
    t.equal(updates[0]!.stalenessMean, 0.75);
    t.same(learner.stats.stalenessHistogram, [2, 1, 1], 'applied trajectories at lags 0, 0, 1, 2');
    t.equal(stalenessQuantile(learner.stats, 0.99), 2);
    t.equal(stalenessQuantile(learner.stats, 0.5), 0);
    const log = await readAccounting(stateDir);
    t.same(log.flatMap((l) => (l.kind === 'drop' ? [`${l.reason}:${l.dropped.join(',')}`] : [])), ['stale:v3']);
    t.same(log.filter((l) => l.kind === 'update').flatMap((l) => (l.kind === 'update' ? l.applied : [])).sort(), ['v4', 'v5', 'v6', 'z']);
  });

  t.test('eta = 0: only the current version is accepted, before and after the version moves', async (t) => {
    const { conn, learner, stateDir, updates, nextUpdate } = await setup(t, 0, 2);
    let done = nextUpdate();
    await publishBatch(conn, 'b1', [traj('a6', [50, 51], 1, 6), traj('a5', [52], 1, 5), traj('b6', [53], -1, 6)]);
    await done;
    t.equal(updates[0]!.version, 6);
    t.equal(learner.version, 7, 'published after the update');
    done = nextUpdate();
    await publishBatch(conn, 'b2', [traj('c6', [50], 1, 6), traj('c7', [51, 52], 1, 7), traj('d7', [53], -1, 7)]);
    await done;
    t.equal(learner.stats.droppedStale, 2, 'a5 and c6 dropped');
    t.same(updates.map((u) => u.stalenessMax), [0, 0]);
    const applied = (await readAccounting(stateDir)).flatMap((l) => (l.kind === 'update' ? l.applied : []));
    t.same(applied.sort(), ['a6', 'b6', 'c7', 'd7']);
  });
});
