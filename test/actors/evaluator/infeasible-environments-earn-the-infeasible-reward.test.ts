// An environment whose hinted mean misses tau earns the designer infeasibleReward instead of its regret; tau is
// configurable. (The original regret rule, designerReward 'regret'; the shaped rule has its own tests.)
import t from 'tap';
import { scoreEpisodes } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

t.test('infeasible environments earn infeasibleReward, not their regret', async (t) => {
  const g = group('e2', [0.4, 0.4], [0, 0]);
  const s = scoreEpisodes(g.episodes, validateEvaluatorOptions({ designerReward: 'regret', infeasibleReward: -0.25 }));
  t.equal(s.feasible, false);
  t.equal(s.regret, 0.4);
  t.equal(s.designerReward, -0.25);
  t.equal(s.rewardKind, 'infeasible');
  t.equal(scoreEpisodes(g.episodes, validateEvaluatorOptions({ designerReward: 'regret', tau: 0.4 })).designerReward, 0.4, 'tau is configurable');
});
