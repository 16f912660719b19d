// GRPO group normalisation gives zero mean and unit population std, and zeros for a constant group.
import t from 'tap';
import { groupNormalise } from '../../../actors/evaluator/score.js';

t.test('group normalisation: zero mean, unit population std, zeros for a constant group', async (t) => {
  const a = groupNormalise([0, 1, 1, 2], 0);
  t.same(a.map((x) => +x.toFixed(6)), [-1.414214, 0, 0, 1.414214]);
  t.same(groupNormalise([0.5, 0.5, 0.5], 1e-6), [0, 0, 0]);
});
