// The per-token objective's gradient against central finite differences (ε = 0.2, C = 2).
import t from 'tap';
import { tokenTerm } from '../../../actors/learner/objective.js';
import { beh, dec } from './objective-cases.js';

t.test('dJ/dlogp matches central finite differences away from the kinks', async (t) => {
  const h = 1e-6;
  let checked = 0;
  for (const o of [beh, dec])
    for (const lr of [-1.2, -0.5, -0.1, 0.05, 0.15, 0.4, 0.9, 1.3])
      for (const a of [-1.5, -0.3, 0.7, 2]) {
        const prox = o.kind === 'decoupled' ? 0.3 : undefined;
        const f = (x: number) => tokenTerm(x, 0, a, o, prox ?? x).objective;
        // For 'behaviour' the proximal argument is unused; for 'decoupled' it is held fixed (detached).
        const g = tokenTerm(lr, 0, a, o, prox ?? lr).grad;
        const fd = o.kind === 'decoupled'
          ? (tokenTerm(lr + h, 0, a, o, prox).objective - tokenTerm(lr - h, 0, a, o, prox).objective) / (2 * h)
          : (f(lr + h) - f(lr - h)) / (2 * h);
        t.ok(Math.abs(fd - g) < 1e-4, `${o.kind} logratio=${lr} A=${a}: fd ${fd.toFixed(6)} vs ${g.toFixed(6)}`);
        checked++;
      }
  t.equal(checked, 64);
});
