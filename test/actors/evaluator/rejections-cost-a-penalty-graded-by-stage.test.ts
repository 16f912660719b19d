// Under the shaped rule a rejection costs rejectedPenalty (−1) at the first validation stage (parse) and
// lastStagePenalty (−0.25) at the last (hint-leak), linear in between over the nine stages; an unknown stage costs
// the full penalty. The regret rule charges rejectedPenalty whatever the stage.
import t from 'tap';
import { rejectedReward } from '../../../actors/evaluator/designer-reward.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { VALIDATION_STAGES } from '../../../sandbox/index.js';

t.test('penalties graded by stage', async (t) => {
  const o = validateEvaluatorOptions();
  t.equal(VALIDATION_STAGES.length, 9);
  // step (1 − 0.25) / 8 = 0.09375 per stage
  const want: Record<string, number> = {
    parse: -1, contract: -0.90625, determinism: -0.8125, limits: -0.71875, 'return-range': -0.625,
    termination: -0.53125, probes: -0.4375, oracle: -0.34375, 'hint-leak': -0.25,
  };
  for (const stage of VALIDATION_STAGES) t.ok(Math.abs(rejectedReward(stage, o) - want[stage]!) < 1e-12, `${stage}: ${rejectedReward(stage, o)}`);
  t.equal(rejectedReward('unknown', o), -1, 'a stage validation does not know');
  const custom = validateEvaluatorOptions({ rejectedPenalty: -2, lastStagePenalty: 0 });
  t.equal(rejectedReward('probes', custom), -2 + (2 * 6) / 8);
  const regret = validateEvaluatorOptions({ designerReward: 'regret' });
  for (const stage of VALIDATION_STAGES) t.equal(rejectedReward(stage, regret), -1, `regret rule, ${stage}`);
});
