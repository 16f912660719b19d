// The shaped designer reward (the default), by hand: 4·p(1 − p) of the no-hint solve rate p when the validation
// oracle reaches oracleGate, plus max(regret, 0) + feasibleBonus when feasible (else infeasibleReward). So a feasible
// environment with negative regret still earns more than an infeasible one with the same learnability.
import t from 'tap';
import { scoreEpisodes } from '../../../actors/evaluator/score.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { group } from './fixtures.js';

const o = validateEvaluatorOptions();
const close = (t: { ok: (v: boolean, m: string) => unknown }, got: number, want: number, what: string) => t.ok(Math.abs(got - want) < 1e-12, `${what}: ${got} = ${want}`);

t.test('learnability, floored regret and the feasibility bonus', async (t) => {
  t.equal(o.designerReward, 'shaped', 'the default');
  // p = 1/4: 4 · 0.25 · 0.75 = 0.75; regret 1 − 0.25 = 0.75; + 0.1.
  const learnable = group('e1', [1, 1, 1, 1], [1, 0, 0, 0]).episodes;
  let s = scoreEpisodes(learnable, o, { oracleMean: 1 });
  t.equal(s.rewardKind, 'shaped');
  close(t, s.learnability, 0.75, 'learnability');
  close(t, s.designerReward, 0.75 + 0.75 + 0.1, 'reward');
  // The gate: an oracle below 0.5, or no oracle figure, shuts the learnability term.
  close(t, scoreEpisodes(learnable, o, { oracleMean: 0.3 }).designerReward, 0.85, 'oracle under the gate');
  close(t, scoreEpisodes(learnable, o, {}).designerReward, 0.85, 'no oracle figure');
  close(t, scoreEpisodes(learnable, validateEvaluatorOptions({ oracleGate: 0.25 }), { oracleMean: 0.3 }).designerReward, 1.6, 'oracleGate is configurable');

  // Feasible with regret −0.5 (p = 1: nothing to learn): max(−0.5, 0) + 0.1 = 0.1 > 0 = an infeasible one's.
  s = scoreEpisodes(group('e2', [0.5, 0.5], [1, 1]).episodes, o, { oracleMean: 1 });
  t.equal(s.regret, -0.5);
  close(t, s.designerReward, 0.1, 'feasible, negative regret');
  const infeasible = scoreEpisodes(group('e3', [0, 0], [0, 0]).episodes, o, { oracleMean: 1 });
  t.equal(infeasible.feasible, false);
  close(t, infeasible.designerReward, 0, 'infeasible, p = 0');
  t.ok(s.designerReward > infeasible.designerReward, 'feasible beats infeasible');

  // Infeasible (hinted mean 0.125 < tau) but learnable (p = 1/2): 4 · 0.25 = 1, + infeasibleReward 0.
  s = scoreEpisodes(group('e4', [0, 0.25], [1, 0]).episodes, o, { oracleMean: 0.9 });
  t.equal(s.feasible, false);
  close(t, s.designerReward, 1, 'learnability before the hinted agent is any good');

  // Weights: regretWeight 2, learnabilityWeight 0, feasibleBonus 0.3 on e1: 2 · 0.75 + 0.3.
  const w = validateEvaluatorOptions({ regretWeight: 2, learnabilityWeight: 0, feasibleBonus: 0.3 });
  close(t, scoreEpisodes(learnable, w, { oracleMean: 1 }).designerReward, 1.8, 'weights');
  // A fault still costs faultPenalty.
  const faulted = group('e5', [1, 1], [0, 0]).episodes.map((e, i) => (i === 0 ? { ...e, error: 'ENV_THREW' } : e));
  t.equal(scoreEpisodes(faulted, o, { oracleMean: 1 }).designerReward, -1);
});
