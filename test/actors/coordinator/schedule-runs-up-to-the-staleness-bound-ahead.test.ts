// Pure logic: the coordinator issues iteration i only when the policy version is at least i − η, never past the budget.
import t from 'tap';
import { issuable } from '../../../actors/coordinator/schedule.js';

t.test('η = 2 runs up to two iterations ahead of the learner', async (t) => {
  const o = { designsPerIteration: 4, maxStaleness: 2, iterations: 10 };
  t.same(issuable({ nextIteration: 0, policyVersion: 0, baseVersion: 0 }, o), [0, 1, 2]);
  t.same(issuable({ nextIteration: 3, policyVersion: 1, baseVersion: 0 }, o), [3]);
  t.same(issuable({ nextIteration: 3, policyVersion: 6, baseVersion: 5 }, o), [3], 'versions count from the run start');
  t.same(issuable({ nextIteration: 9, policyVersion: 100, baseVersion: 0 }, o), [9], 'never past the iteration budget');
});
