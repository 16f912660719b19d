// The agent trains on the unhinted episodes by default; with agentEpisodes 'all' the hinted ones are a group of
// their own.
import t from 'tap';
import { agentAdvantages } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

const o = validateEvaluatorOptions();

t.test('the agent trains on unhinted episodes by default, hinted ones as their own group with agentEpisodes all', async (t) => {
  const g = group('e6', [1, 0], [1, 0, 0, 0]);
  const def = agentAdvantages(g.episodes, o);
  t.same(def.map((l) => l.episode.trajId), ['e6/n0', 'e6/n1', 'e6/n2', 'e6/n3']);
  t.ok(Math.abs(def[0]!.advantage - 3 / Math.sqrt(3)) < 1e-4, '(1 - 0.25) / sqrt(3/16)');
  const all = agentAdvantages(g.episodes, validateEvaluatorOptions({ agentEpisodes: 'all' }));
  t.equal(all.length, 6);
  const h = all.filter((l) => l.episode.hinted).map((l) => +l.advantage.toFixed(4));
  t.same(h, [1, -1], 'hinted group normalised on its own');
});
