// Evaluator math without the runtime: regret, feasibility, designer rewards and penalties, the no-hint-regret
// ablation, GRPO group normalisation, and the designer's running baseline.
import t from 'tap';
import { labelAccepted, labelRejected } from '../../../actors/evaluator/label.js';
import { agentAdvantages, groupNormalise, scoreEpisodes } from '../../../actors/evaluator/score.js';
import { EMPTY_BASELINE, baselineStep } from '../../../actors/evaluator/designer-baseline.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { isOptionsError } from '../../../runtime/options.js';
import { episode, group } from './fixtures.js';

const o = validateEvaluatorOptions();

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

t.test('infeasible environments earn infeasibleReward, not their regret', async (t) => {
  const g = group('e2', [0.4, 0.4], [0, 0]);
  const s = scoreEpisodes(g.episodes, validateEvaluatorOptions({ infeasibleReward: -0.25 }));
  t.equal(s.feasible, false);
  t.equal(s.regret, 0.4);
  t.equal(s.designerReward, -0.25);
  t.equal(s.rewardKind, 'infeasible');
  t.equal(scoreEpisodes(g.episodes, validateEvaluatorOptions({ tau: 0.4 })).designerReward, 0.4, 'tau is configurable');
});

t.test('an episode that faulted costs the designer faultPenalty and trains nobody', async (t) => {
  const g = group('e3', [1, 1], [0, 0]);
  g.episodes.push(episode('e3/bad', false, 0, { error: 'SANDBOX_TIMEOUT' }));
  const s = scoreEpisodes(g.episodes, o);
  t.equal(s.faulted, 1);
  t.equal(s.regret, 1, 'regret over clean episodes');
  t.equal(s.designerReward, -1);
  t.notOk(agentAdvantages(g.episodes, o).some((l) => l.episode.trajId === 'e3/bad'));
});

t.test('ablation noHintRegret rewards validity only', async (t) => {
  const ab = validateEvaluatorOptions({ noHintRegret: true, validReward: 0.5 });
  t.equal(scoreEpisodes(group('e4', [0, 0], [0, 0]).episodes, ab).designerReward, 0.5, 'even infeasible');
  t.equal(scoreEpisodes(group('e5', [1, 1], [0, 0]).episodes, ab).designerReward, 0.5, 'regret ignored');
  const rej = labelRejected({ envId: 'r', jobId: 'j', iteration: 0, code: 'x', stage: 'parse', reason: 'bad', parents: [], designer: group('r', [0], [0]).env.designer! }, ab.rejectedPenalty, 0);
  t.equal(rej.designerReward, -1, 'rejection still penalised');
  t.equal(rej.accepted, false);
  t.same(rej.trajectories.map((x) => [x.trajId, x.role]), [['r/designer', 'designer']]);
});

t.test('group normalisation: zero mean, unit population std, zeros for a constant group', async (t) => {
  const a = groupNormalise([0, 1, 1, 2], 0);
  t.same(a.map((x) => +x.toFixed(6)), [-1.414214, 0, 0, 1.414214]);
  t.same(groupNormalise([0.5, 0.5, 0.5], 1e-6), [0, 0, 0]);
});

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
  ]);
});

t.test('designer baseline: exact average at first, EMA later, advantage against the baseline before the reward', async (t) => {
  const bo = validateEvaluatorOptions({ baselineAlpha: 0.5, normalizeDesigner: false });
  let s = EMPTY_BASELINE;
  const r1 = baselineStep(s, 'a', 1, bo);
  t.equal(r1.advantage, 0, 'no baseline yet');
  s = r1.next;
  t.equal(s.mean, 1);
  const r2 = baselineStep(s, 'b', 0, bo);
  t.equal(r2.advantage, -1);
  s = r2.next;
  t.equal(s.mean, 0.5);
  t.equal(s.variance, 0.25, 'population variance of {1, 0}');
  const r3 = baselineStep(s, 'c', 1, bo);
  t.equal(r3.advantage, 0.5);
  t.equal(r3.next.mean, 0.75, 'rate stays at alpha = 0.5 after 2 rewards');
  t.equal(baselineStep(r3.next, 'b', 5, bo).advantage, -1, 'a batch seen before gets its first advantage back');
  t.equal(baselineStep(r3.next, 'b', 5, bo).next, r3.next, 'and does not move the baseline');
  const norm = validateEvaluatorOptions({ baselineAlpha: 0.5 });
  t.equal(baselineStep(r2.next, 'c', 1, norm).advantage, 0.5 / 0.5, 'normalised by the running std (0.5)');
  let flat = EMPTY_BASELINE;
  for (const id of ['x1', 'x2', 'x3']) flat = baselineStep(flat, id, -1, norm).next;
  t.equal(baselineStep(flat, 'y', 1, norm).advantage, 5, 'after equal rewards the std floor (0.1) applies, then the clip at 5');
});

t.test('options name the bad field', async (t) => {
  t.throws(() => validateEvaluatorOptions({ tau: 2 }), /^loop\.evaluator\.tau: expected a finite number >= 0 and <= 1, got 2$/);
  t.throws(() => validateEvaluatorOptions({ agentEpisodes: 'hinted' as never }), /loop\.evaluator\.agentEpisodes: expected one of "no-hint", "all"/);
  t.throws(() => validateEvaluatorOptions({ taux: 1 } as never), /loop\.evaluator\.taux: unknown field/);
  const err = (() => { try { validateEvaluatorOptions({ baselineAlpha: 0 }); } catch (e) { return e; } return null; })();
  t.ok(isOptionsError(err), 'an OptionsError');
  t.equal((err as { path: string }).path, 'loop.evaluator.baselineAlpha');
});
