// The per-token objective against hand-computed values (ε = 0.2, C = 2), and its gradient against finite differences.
import t from 'tap';
import { tokenTerm, type ObjectiveOptions } from '../../../actors/learner/objective.js';

const beh: ObjectiveOptions = { kind: 'behaviour', clipEps: 0.2, tisCap: 2 };
const dec: ObjectiveOptions = { kind: 'decoupled', clipEps: 0.2, tisCap: 2 };
const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;

t.test("'behaviour': PPO clip around the behaviour policy, ratio truncated at C", async (t) => {
  // [ratio, advantage, J, dJ/dlogp, clipped, truncated]
  const cases: Array<[number, number, number, number, boolean, boolean]> = [
    [1.1, 1, 1.1, 1.1, false, false], // inside the band: plain importance-weighted PG
    [1.5, 1, 1.2, 0, true, false], // improving past 1+ε: clipped
    [0.5, 1, 0.5, 0.5, false, false], // below the band with A > 0: not clipped (pessimistic branch)
    [0.5, -1, -0.8, 0, true, false], // below 1−ε with A < 0: clipped
    [1.5, -1, -1.5, -1.5, false, false], // above the band with A < 0: unclipped
    [3, -1, -2, 0, false, true], // ratio past C: truncated to C, no gradient
    [3, 1, 1.2, 0, true, false],
  ];
  for (const [r, a, j, g, c, tr] of cases) {
    const x = tokenTerm(Math.log(r), 0, a, beh);
    t.ok(close(x.objective, j), `r=${r} A=${a}: J ${x.objective} = ${j}`);
    t.ok(close(x.grad, g), `r=${r} A=${a}: dJ/dlogp ${x.grad} = ${g}`);
    t.equal(x.clipped, c, `r=${r} A=${a}: clipped`);
    t.equal(x.truncated, tr, `r=${r} A=${a}: truncated`);
    t.ok(close(x.ratio, r));
  }
});

t.test("'decoupled': TIS weight π_prox/π_behav capped at C, clip around the proximal policy", async (t) => {
  const a = tokenTerm(Math.log(1.5), 0, 2, dec, Math.log(1.5));
  t.ok(close(a.objective, 3) && close(a.grad, 3), 'w = 1.5, r = 1: J = dJ/dlogp = w·A');
  const b = tokenTerm(Math.log(3 * 1.3), 0, 1, dec, Math.log(3));
  t.ok(close(b.objective, 2 * 1.2) && b.grad === 0 && b.clipped && b.truncated, 'w capped at 2, r = 1.3 clipped to 1.2');
  const c = tokenTerm(Math.log(3 * 1.3), 0, -1, dec, Math.log(3));
  t.ok(close(c.objective, -2.6) && close(c.grad, -2.6) && !c.clipped, 'A < 0 above the band stays unclipped');
});

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
