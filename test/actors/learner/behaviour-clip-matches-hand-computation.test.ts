// The 'behaviour' objective against hand-computed values (ε = 0.2, C = 2).
import t from 'tap';
import { tokenTerm } from '../../../actors/learner/objective.js';
import { beh, close } from './objective-cases.js';

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
