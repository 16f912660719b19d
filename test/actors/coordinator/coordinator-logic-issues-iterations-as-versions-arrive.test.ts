// The coordinator logic, fed events with no server: it issues the iterations the staleness bound allows, one issue
// at a time, more as the policy version moves, none past the run's iterations; an iteration whose design jobs are
// all labeled writes a metrics line, and the last one finishes the run (final line, view, shutdown request).
import t from 'tap';
import { transition, type CoordinatorEffect, type CoordinatorLimits, type CoordinatorState } from '../../../actors/coordinator/coordinator-logic.js';
import { emptyStats } from '../../../actors/coordinator/run-stats.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 2, maxStaleness: 1, iterations: 3, minutes: Infinity };
const fresh = (): CoordinatorState => ({ stats: emptyStats(0), runId: 'r', nextIteration: 0, baseVersion: 0, issuing: false, finished: false, archived: new Set() });
const issued = (fx: CoordinatorEffect[]) => fx.flatMap((f) => (f.type === 'issue' ? f.iterations.map((i) => i.iteration) : []));
const labeled = (iteration: number, envId: string) => ({ batchId: envId, envId, iteration, accepted: true, regret: 0.5, returnHint: 1, returnNoHint: 0.5, designerReward: 0.5, trajectories: [] });

t.test('issues within the staleness bound as versions arrive', async (t) => {
  const s = fresh();
  let fx = transition(s, { type: 'issued', next: 0, now: 0 }, o).effects;
  t.same(issued(fx), [0, 1], 'version 0, η = 1: iterations 0 and 1');
  const jobs = (fx[0] as Extract<CoordinatorEffect, { type: 'issue' }>).iterations[1]!.jobs;
  t.same(jobs.map((j) => [j.jobId, j.iteration, j.minPolicyVersion]), [['r-it1-d0', 1, 0], ['r-it1-d1', 1, 0]]);
  t.same(issued(transition(s, { type: 'policyVersion', version: 1, now: 1 }, o).effects), [], 'one issue at a time: the next waits for this one');
  fx = transition(s, { type: 'issued', next: 2, now: 2 }, o).effects;
  t.same(issued(fx), [2], 'the version that arrived meanwhile lets iteration 2 out once the first issue is done');
  t.equal(s.stats.iterationsIssued, 2);
  fx = transition(s, { type: 'issued', next: 3, now: 3 }, o).effects;
  t.same(issued(transition(s, { type: 'policyVersion', version: 5, now: 4 }, o).effects), [], 'never past the run\'s iterations');
  t.same(transition(s, { type: 'policyVersion', version: 4, now: 5 }, o).effects, [], 'an older version changes nothing');
});

t.test('a failed issue is logged and retried on the next version', async (t) => {
  const s = fresh();
  transition(s, { type: 'issued', next: 0, now: 0 }, o);
  const fx = transition(s, { type: 'issued', next: 1, error: 'no responders', now: 1 }, o).effects;
  t.same(fx.map((f) => f.type), ['log']);
  t.equal(s.nextIteration, 1, 'iteration 0 went out before the failure');
  t.same(issued(transition(s, { type: 'policyVersion', version: 1, now: 2 }, o).effects), [1, 2]);
});

t.test('labeled iterations write metrics; the last finishes the run once', async (t) => {
  const s = fresh();
  const types = (fx: CoordinatorEffect[]) => fx.map((f) => (f.type === 'metrics' ? `metrics:${f.line.event}` : f.type));
  t.same(types(transition(s, { type: 'labeled', body: labeled(0, 'e0'), now: 10 }, o).effects), ['archive'], 'half an iteration');
  t.same(types(transition(s, { type: 'labeled', body: labeled(0, 'e1'), now: 11 }, o).effects), ['archive', 'metrics:iteration']);
  t.same(types(transition(s, { type: 'labeled', body: labeled(0, 'e1'), now: 12 }, o).effects), [], 'archived once; the stats count the batch but the iteration is done');
  for (const [i, id] of [[1, 'e2'], [1, 'e3'], [2, 'e4']] as const) transition(s, { type: 'labeled', body: labeled(i, id), now: 13 }, o);
  t.same(types(transition(s, { type: 'labeled', body: labeled(2, 'e5'), now: 14 }, o).effects), ['archive', 'metrics:iteration', 'metrics:final', 'view', 'shutdown']);
  t.equal(s.finished, true);
  t.same(types(transition(s, { type: 'timeUp', now: 15 }, o).effects), [], 'finished once');
});
