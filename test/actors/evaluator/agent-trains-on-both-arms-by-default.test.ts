// The agent trains on the hinted and the unhinted episodes by default, each arm normalised as a group of its own (the
// hinted arm must learn to read hints or regret stays zero); agentEpisodes 'no-hint' keeps only the unhinted arm.
import t from 'tap';
import { agentAdvantages } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

const o = validateEvaluatorOptions();

t.test('the agent trains on both arms by default, each its own group; agentEpisodes no-hint keeps the unhinted one', async (t) => {
  const g = group('e6', [1, 0], [1, 0, 0, 0]);
  const def = agentAdvantages(g.episodes, o);
  t.equal(def.length, 6, 'hinted and unhinted episodes');
  const h = def.filter((l) => l.episode.hinted).map((l) => +l.advantage.toFixed(4));
  t.same(h, [1, -1], 'hinted group normalised on its own');
  const plain = agentAdvantages(g.episodes, validateEvaluatorOptions({ agentEpisodes: 'no-hint' }));
  t.same(plain.map((l) => l.episode.trajId), ['e6/n0', 'e6/n1', 'e6/n2', 'e6/n3']);
  t.ok(Math.abs(plain[0]!.advantage - 3 / Math.sqrt(3)) < 1e-4, '(1 - 0.25) / sqrt(3/16)');
  const n = def.filter((l) => !l.episode.hinted);
  t.same(n.map((l) => l.advantage), plain.map((l) => l.advantage), 'the unhinted group is the same either way');
});
