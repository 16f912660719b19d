// Evaluator math without the runtime: regret is the hinted mean return minus the unhinted one, and an environment
// is feasible when the hinted mean reaches tau.
import t from 'tap';
import { scoreEpisodes } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

const o = validateEvaluatorOptions({ designerReward: 'regret' }); // the original rule; the shaped one has its own tests

t.test('regret is hinted mean minus unhinted mean; feasible when the hinted mean reaches tau', async (t) => {
  const g = group('e1', [1, 0.5, 1, 0.5], [0, 0.5, 0, 0.25]);
  const s = scoreEpisodes(g.episodes, o);
  t.equal(s.returnHint, 0.75);
  t.equal(s.returnNoHint, 0.1875);
  t.equal(s.regret, 0.75 - 0.1875);
  t.equal(s.feasible, true);
  t.equal(s.designerReward, s.regret);
  t.equal(s.rewardKind, 'regret');
  t.equal(s.solveRateHint, 1);
  t.equal(s.solveRateNoHint, 0.25);
});
