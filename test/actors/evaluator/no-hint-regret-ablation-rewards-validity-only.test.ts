// The noHintRegret ablation pays the designer validReward for any valid environment and still penalises rejections.
import t from 'tap';
import { labelRejected } from '../../../actors/evaluator/label.js';
import { scoreEpisodes } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

t.test('ablation noHintRegret rewards validity only', async (t) => {
  const ab = validateEvaluatorOptions({ noHintRegret: true, validReward: 0.5 });
  t.equal(scoreEpisodes(group('e4', [0, 0], [0, 0]).episodes, ab).designerReward, 0.5, 'even infeasible');
  t.equal(scoreEpisodes(group('e5', [1, 1], [0, 0]).episodes, ab).designerReward, 0.5, 'regret ignored');
  const rej = labelRejected({ envId: 'r', jobId: 'j', iteration: 0, code: 'x', stage: 'parse', reason: 'bad', parents: [], designer: group('r', [0], [0]).env.designer! }, ab.rejectedPenalty, 0);
  t.equal(rej.designerReward, -1, 'rejection still penalised');
  t.equal(rej.accepted, false);
  t.same(rej.trajectories.map((x) => [x.trajId, x.role]), [['r/designer', 'designer']]);
});
