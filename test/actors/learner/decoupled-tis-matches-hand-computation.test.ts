// The 'decoupled' objective against hand-computed values (ε = 0.2, C = 2).
import t from 'tap';
import { tokenTerm } from '../../../actors/learner/objective.js';
import { dec, close } from './objective-cases.js';

t.test("'decoupled': TIS weight π_prox/π_behav capped at C, clip around the proximal policy", async (t) => {
  const a = tokenTerm(Math.log(1.5), 0, 2, dec, Math.log(1.5));
  t.ok(close(a.objective, 3) && close(a.grad, 3), 'w = 1.5, r = 1: J = dJ/dlogp = w·A');
  const b = tokenTerm(Math.log(3 * 1.3), 0, 1, dec, Math.log(3));
  t.ok(close(b.objective, 2 * 1.2) && b.grad === 0 && b.clipped && b.truncated, 'w capped at 2, r = 1.3 clipped to 1.2');
  const c = tokenTerm(Math.log(3 * 1.3), 0, -1, dec, Math.log(3));
  t.ok(close(c.objective, -2.6) && close(c.grad, -2.6) && !c.clipped, 'A < 0 above the band stays unclipped');
});
