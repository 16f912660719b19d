// A labeled batch carries the designer sample with its advantage and each training episode with its own.
import t from 'tap';
import { labelAccepted } from '../../../actors/evaluator/label.js';
import { scoreEpisodes } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

const o = validateEvaluatorOptions({ designerReward: 'regret' }); // the original rule; the shaped one has its own tests

t.test('a labeled batch carries the designer sample and each training episode with its advantage', async (t) => {
  const g = group('e7', [1, 1], [1, 0]);
  const s = scoreEpisodes(g.episodes, o);
  const b = labelAccepted(g, s, 0.7, o);
  t.equal(b.batchId, 'e7');
  t.equal(b.regret, 0.5);
  t.same(b.trajectories.map((x) => [x.trajId, x.role, +x.advantage.toFixed(4), x.reward]), [
    ['e7/designer', 'designer', 0.7, 0.5],
    ['e7/n0', 'agent', 1, 1],
    ['e7/n1', 'agent', -1, 0],
    ['e7/h0', 'agent', 0, 1],
    ['e7/h1', 'agent', 0, 1],
  ], 'both arms train the agent; the hinted group (equal returns) gets zero advantages');
});
