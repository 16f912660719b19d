// The per-token scale of each role's tokens, by hand: w_r / (W · N_r), W the sum of the weights of the roles present
// (N_r > 0); one role present gives its plain token mean, every weight zero gives no gradient.
import t from 'tap';
import { roleScales } from '../../../actors/learner/policy-trainer.js';

t.test('per-token scales by hand', async (t) => {
  t.same(roleScales({ designer: 1000, agent: 10 }), { designer: 1 / 2000, agent: 1 / 20 }, 'equal weights: half the loss each');
  t.same(roleScales({ designer: 1000, agent: 10 }, { designer: 1, agent: 3 }), { designer: 1 / 4000, agent: 3 / 40 });
  t.same(roleScales({ designer: 0, agent: 10 }), { designer: 0, agent: 1 / 10 }, 'one role present: its plain token mean');
  t.same(roleScales({ designer: 5, agent: 10 }, { designer: 0, agent: 0 }), { designer: 0, agent: 0 }, 'all weights zero: no gradient');
});
