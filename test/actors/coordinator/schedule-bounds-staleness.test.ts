// Pure logic: the coordinator issues iteration i only when the policy version is at least i − η,
// and job ids/seeds are deterministic so a re-issued iteration is deduplicated.
import t from 'tap';
import { issuable, jobIds, jobSeed } from '../../../actors/coordinator/schedule.js';
import { emptyStats, onAccepted, onLabeled, onRejected, summary } from '../../../actors/coordinator/run-stats.js';

t.test('η = 0 is synchronous: one iteration per policy version', async (t) => {
  const o = { designsPerIteration: 4, maxStaleness: 0, iterations: 10 };
  t.same(issuable({ nextIteration: 0, policyVersion: 0, baseVersion: 0 }, o), [0]);
  t.same(issuable({ nextIteration: 1, policyVersion: 0, baseVersion: 0 }, o), [], 'waits for the weights trained on iteration 0');
  t.same(issuable({ nextIteration: 1, policyVersion: 1, baseVersion: 0 }, o), [1]);
});

t.test('η = 2 runs up to two iterations ahead of the learner', async (t) => {
  const o = { designsPerIteration: 4, maxStaleness: 2, iterations: 10 };
  t.same(issuable({ nextIteration: 0, policyVersion: 0, baseVersion: 0 }, o), [0, 1, 2]);
  t.same(issuable({ nextIteration: 3, policyVersion: 1, baseVersion: 0 }, o), [3]);
  t.same(issuable({ nextIteration: 3, policyVersion: 6, baseVersion: 5 }, o), [3], 'versions count from the run start');
  t.same(issuable({ nextIteration: 9, policyVersion: 100, baseVersion: 0 }, o), [9], 'never past the iteration budget');
});

t.test('ids and seeds are deterministic and distinct', async (t) => {
  t.same(jobIds('r', 3, 2), ['r-it3-d0', 'r-it3-d1']);
  const seeds = new Set<number>();
  for (let i = 0; i < 50; i++) for (let j = 0; j < 8; j++) seeds.add(jobSeed(7, i, j));
  t.equal(seeds.size, 400);
  t.equal(jobSeed(7, 1, 2), jobSeed(7, 1, 2));
});

t.test('run stats fold events and complete iterations', async (t) => {
  const s = emptyStats(0);
  onAccepted(s, 0);
  onRejected(s, 0, 'probes');
  t.equal(onLabeled(s, { iteration: 0, accepted: true, regret: 0.5, returnHint: 0.75, returnNoHint: 0.25, trajectories: 9 }, 2), false);
  t.equal(onLabeled(s, { iteration: 0, accepted: false, trajectories: 1 }, 2), true, 'the second labeled batch completes the iteration');
  const m = summary(s, 10_000);
  t.equal(m.meanRegret, 0.5);
  t.same(m.rejectedByStage, { probes: 1 });
  t.equal(m.trajectoriesPerSec, 1);
});
