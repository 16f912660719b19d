// The KL penalty's per-token term (k3 estimator) against central finite differences, and its shape: zero where the
// policy agrees with the reference, positive elsewhere, scaled by β.
import t from 'tap';
import { klTerm } from '../../../actors/learner/objective.js';

t.test('d(−β·k3)/dlogp matches central finite differences', async (t) => {
  const h = 1e-6;
  let checked = 0;
  for (const beta of [0.01, 0.1, 1])
    for (const logp of [-6, -2.5, -0.7, -0.01])
      for (const gap of [-2, -0.3, 0, 0.4, 1.5]) {
        const ref = logp + gap;
        const fd = (klTerm(logp + h, ref, beta).objective - klTerm(logp - h, ref, beta).objective) / (2 * h);
        const g = klTerm(logp, ref, beta).grad;
        t.ok(Math.abs(fd - g) < 1e-5 * Math.max(1, Math.abs(g)), `β ${beta} logp ${logp} ref ${ref}: fd ${fd.toFixed(7)} vs ${g.toFixed(7)}`);
        checked++;
      }
  t.equal(checked, 60);

  t.test('k3 is 0 at the reference, positive away from it, and its gradient points back', async (t) => {
    t.equal(klTerm(-1.3, -1.3, 0.5).kl, 0);
    t.equal(klTerm(-1.3, -1.3, 0.5).grad, 0);
    const above = klTerm(-1, -2, 0.5), below = klTerm(-2, -1, 0.5);
    t.ok(above.kl > 0 && below.kl > 0, 'positive on both sides');
    t.ok(above.grad < 0, 'a token more likely than under the reference is pushed down');
    t.ok(below.grad > 0, 'a token less likely than under the reference is pushed up');
    t.ok(Math.abs(above.kl - (Math.exp(-1) + 1 - 1)) < 1e-12, 'k3 = e^δ − δ − 1 with δ = ref − logp');
    t.equal(klTerm(-1, -2, 0).objective, -0, 'β = 0 adds nothing');
  });
});
