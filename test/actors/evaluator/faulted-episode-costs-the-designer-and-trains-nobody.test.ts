// An episode that faulted costs the designer faultPenalty, is left out of the regret and trains no agent.
import t from 'tap';
import { agentAdvantages, scoreEpisodes } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { episode, group } from './fixtures.js';

const o = validateEvaluatorOptions();

t.test('an episode that faulted costs the designer faultPenalty and trains nobody', async (t) => {
  const g = group('e3', [1, 1], [0, 0]);
  g.episodes.push(episode('e3/bad', false, 0, { error: 'SANDBOX_TIMEOUT' }));
  const s = scoreEpisodes(g.episodes, o);
  t.equal(s.faulted, 1);
  t.equal(s.regret, 1, 'regret over clean episodes');
  t.equal(s.designerReward, -1);
  t.notOk(agentAdvantages(g.episodes, o).some((l) => l.episode.trajId === 'e3/bad'));
});
