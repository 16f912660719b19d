// The coordinator logic, fed events with no server: an issue that fails (no design workers answered) is logged, and
// the iterations it did not send go out again when the next policy version arrives.
import t from 'tap';
import { transition, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { freshState, issuedIterations as issued } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 2, maxStaleness: 1, iterations: 3, minutes: Infinity };

t.test('a failed issue is logged and retried on the next version', async (t) => {
  const s = freshState();
  transition(s, { type: 'issued', next: 0, now: 0 }, o);
  const fx = transition(s, { type: 'issued', next: 1, error: 'no responders', now: 1 }, o).effects;
  t.same(fx.map((f) => f.type), ['log']);
  t.equal(s.nextIteration, 1, 'iteration 0 went out before the failure');
  t.same(issued(transition(s, { type: 'policyVersion', version: 1, now: 2 }, o).effects), [1, 2]);
});
