// After a stop, a resumed learner is exactly where the stopped one was, field by field: its update count, policy
// version, applied and dropped counts (stale and invalid, including a drop after the last checkpoint), skipped and
// trained-token counts, staleness maximum and histogram, its weights and optimizer state (step, first and second
// moments) bit for bit, and the published version (nothing republished). Staleness accounting used to restart at zero.
import t from 'tap';
import type { Learner } from '../../../actors/learner/learner.js';
import type { LearnerStats } from '../../../actors/learner/learner-metrics.js';
import type { TrainerState } from '../../../actors/learner/trainer-thread.js';
import { openWeightStores, readPolicyRecord } from '../../../weight-sync/index.js';
import { connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';
import { hostedLearner, learnerOptions, publishBatch, traj, when } from './tiny.js';

const bits = (a: Float32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const sameArrays = (x: ReadonlyMap<string, Float32Array>, y: ReadonlyMap<string, Float32Array>): boolean =>
  x.size === y.size && [...x].every(([n, a]) => y.has(n) && bits(a).equals(bits(y.get(n)!)));

t.test('resume restores the learner exactly', async (t) => {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const conn = await connected(t, config);
  const stateDir = tempDir(t, 'spade-learner-');
  // eta 1: the third update's trajectories (sampled at version 0, learner at 2) are too stale and dropped.
  const options = learnerOptions({ checkpoints: { dir: stateDir }, batching: { eta: 1, minibatchTrajectories: 2 }, cadence: { checkpointEvery: 1, publishEvery: 1 } });
  const a = await hostedLearner(t, conn, config, options, {}, 'a');
  const first: Learner = a.learner();
  let total = 0;
  const batch = async (id: string, trajs: ReturnType<typeof traj>[]): Promise<void> => {
    total += trajs.length;
    await publishBatch(conn, id, trajs);
  };
  await batch('b0', [traj('a0', [50, 51], 1, 0), traj('a1', [52, 53], -1, 0)]);
  await batch('b1', [traj('b0', [54, 55], 1, 0), traj('b1', [56, 57], 0, 0)]); // a zero advantage: skipped
  await batch('b2', [traj('c0', [58, 59], 1, 0), traj('c1', [60, 61], -1, 0)]);
  await batch('b3', [traj('d0', [62, 63], 1, 1), traj('d1', [64, 9999], -1, 1)]); // 9999: outside the vocab, invalid
  const settled = (): boolean => first.stats.applied + first.stats.dropped >= total && first.buffered === 0;
  await when(first, 'update', settled);
  await when(first, 'received', settled);
  // A batch dropped whole after the last checkpoint: no update follows it, so no checkpoint records it.
  await batch('b4', [traj('e0', [66, 67], 1, 0), traj('e1', [68, 69], -1, 0)]);
  await when(first, 'received', () => first.stats.dropped >= 5);
  const before: LearnerStats = { ...first.stats, stalenessHistogram: [...first.stats.stalenessHistogram] };
  const trained: TrainerState = await first.trainer.state();
  await a.stop();
  t.ok(before.droppedStale >= 4 && before.droppedInvalid === 1 && before.skipped >= 1, `the run exercised every counter: ${JSON.stringify({ ...before, last: undefined })}`);
  t.ok(before.stalenessHistogram.length >= 2, `lags 0 and 1 were applied: ${before.stalenessHistogram}`);

  const b = await hostedLearner(t, conn, config, options, {}, 'b');
  const second = b.learner();
  t.equal(second.stats.origin, 'resume');
  for (const f of ['updates', 'version', 'applied', 'dropped', 'droppedStale', 'droppedInvalid', 'skipped', 'trainedTokens', 'stalenessMax', 'stalenessHistogram'] as const) {
    t.same(second.stats[f], before[f], `${f}: ${JSON.stringify(before[f])}`);
  }
  t.same(second.stats.published, [], 'nothing republished: the published version is already the learner\'s');
  const { kv } = await openWeightStores(conn);
  t.equal((await readPolicyRecord(kv))!.record!.version, before.version, 'KV holds the version the learner stopped at');
  const resumed = await second.trainer.state();
  t.ok(sameArrays(resumed.weights, trained.weights), 'weights bit for bit');
  t.equal(resumed.optimizer.step, trained.optimizer.step, `optimizer step ${trained.optimizer.step}`);
  t.ok(sameArrays(resumed.optimizer.m, trained.optimizer.m), 'first moments bit for bit');
  t.ok(sameArrays(resumed.optimizer.v, trained.optimizer.v), 'second moments bit for bit');
  await b.stop();
});
