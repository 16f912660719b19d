// agentAdvantage 'mean' (Dr. GRPO) gives each episode its return minus its group's mean, without dividing by the
// group's std: a rare win weighs what it won, not how rare it was. 'std' (the default) stays GRPO.
import t from 'tap';
import { agentAdvantages } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

t.test("'mean' centres each arm's returns; 'std' also divides by the std", async (t) => {
  const g = group('e7', [1, 1, 1, 0], [1, 0, 0, 0]);
  const mean = agentAdvantages(g.episodes, validateEvaluatorOptions({ agentAdvantage: 'mean' }));
  t.same(mean.filter((l) => !l.episode.hinted).map((l) => l.advantage), [0.75, -0.25, -0.25, -0.25], 'unhinted: R − 0.25');
  t.same(mean.filter((l) => l.episode.hinted).map((l) => l.advantage), [0.25, 0.25, 0.25, -0.75], 'hinted: R − 0.75, its own group');
  const std = agentAdvantages(g.episodes, validateEvaluatorOptions());
  t.ok(Math.abs(std.find((l) => l.episode.trajId === 'e7/n0')!.advantage - 0.75 / Math.sqrt(3 / 16)) < 1e-4, 'the default divides by the std');
  t.same(agentAdvantages(group('e8', [1, 1], [0, 0]).episodes, validateEvaluatorOptions({ agentAdvantage: 'mean' })).map((l) => l.advantage), [0, 0, 0, 0], 'all-equal groups: no signal');
  t.throws(() => validateEvaluatorOptions({ agentAdvantage: 'max' as never }), /agentAdvantage/);
});
