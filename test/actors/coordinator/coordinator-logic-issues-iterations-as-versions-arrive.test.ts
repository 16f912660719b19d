// The coordinator logic, fed events with no server, issues the iterations the staleness bound allows, one issue at a
// time, more as the policy version moves, none past the run's iterations.
import t from 'tap';
import { transition, type CoordinatorEffect, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { freshState, issuedIterations as issued } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 2, maxStaleness: 1, iterations: 3, minutes: Infinity };

t.test('issues within the staleness bound as versions arrive', async (t) => {
  const s = freshState();
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
