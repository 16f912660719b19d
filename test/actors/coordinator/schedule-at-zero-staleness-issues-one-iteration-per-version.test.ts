// Pure logic: with η = 0 the coordinator issues iteration i only once the policy version reaches i.
import t from 'tap';
import { issuable } from '../../../actors/coordinator/schedule.js';

t.test('η = 0 is synchronous: one iteration per policy version', async (t) => {
  const o = { designsPerIteration: 4, maxStaleness: 0, iterations: 10 };
  t.same(issuable({ nextIteration: 0, policyVersion: 0, baseVersion: 0 }, o), [0]);
  t.same(issuable({ nextIteration: 1, policyVersion: 0, baseVersion: 0 }, o), [], 'waits for the weights trained on iteration 0');
  t.same(issuable({ nextIteration: 1, policyVersion: 1, baseVersion: 0 }, o), [1]);
});
