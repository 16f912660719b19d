// The loop's target figures from a run archive, on hand-built lines: regret averages feasible environments only,
// the designer reward's slope is the least-squares one (its interval holds it), validity counts rejections, novelty
// and families come from the accepted archive, the frontier band share is split into halves of the run.
import t from 'tap';
import { loopFigures, slope } from '../../experiment/index.js';

const accepted = [
  { envId: 'a', family: 'games', novelty: { novel: true, libraryCopyOf: null, newStructure: true }, grounding: { docWords: 3, controlWords: 1 } },
  { envId: 'b', family: 'games', novelty: { novel: false, libraryCopyOf: 'door-code', newStructure: false } },
  { envId: 'c', family: 'tools', novelty: { novel: true, libraryCopyOf: null, newStructure: false }, grounding: { docWords: 2, controlWords: 2 } },
];
const evaluated = [
  { envId: 'a', iteration: 1, feasible: true, regret: 0.5, returnHint: 1, returnNoHint: 0.5 },
  { envId: 'b', iteration: 2, feasible: false, regret: 0.1, returnHint: 0.2, returnNoHint: 0.1 },
  { envId: 'c', iteration: 3, feasible: true, regret: 0.25, returnHint: 0.75, returnNoHint: 0.5 },
];
const rejected = [{ envId: 'd', stage: 'parse' }, { envId: 'e', stage: 'oracle' }, { envId: 'f', stage: 'parse' }];
const metrics = [1, 2, 3, 4].map((index) => ({ event: 'iteration', iteration: { index, meanDesignerReward: -1 + 0.5 * index } }));

t.test('loop figures summarise a run archive', async (t) => {
  const f = loopFigures(accepted, evaluated, rejected, metrics);
  t.equal(f.proposed, 6);
  t.equal(f.validity, 0.5);
  t.same(f.rejectedByStage, { parse: 2, oracle: 1 });
  t.equal(f.regret.feasible, 2, 'the infeasible environment is left out');
  t.equal(f.regret.mean, 0.375);
  t.ok(f.regret.ci95![0] >= 0.25 && f.regret.ci95![1] <= 0.5, 'the interval lies within the feasible regrets');
  t.equal(f.reward.slope, 0.5, 'rewards rise by 0.5 an iteration');
  t.same(f.reward.ci95, [0.5, 0.5], 'points on a line: every resample has the same slope');
  t.same([f.reward.first, f.reward.last], [-0.5, 1]);
  t.same(f.novelty, { scored: 3, novel: 2, novelFraction: 2 / 3, newStructure: 1, newStructureFraction: 1 / 3, libraryCopies: 1 });
  t.same(f.families, { games: 2, tools: 1 });
  t.same([f.grounding.scored, f.grounding.docWords, f.grounding.controlWords, f.grounding.difference], [2, 2.5, 1.5, 1], 'grounding over the two environments that carry it');
  t.ok(f.grounding.ci95![0] >= 0 && f.grounding.ci95![1] <= 2, 'its interval lies within the two differences');
  t.same([f.frontier.inBand, f.frontier.firstHalf, f.frontier.secondHalf], [2 / 3, 1, 0.5]);
  t.equal(slope([{ x: 1, y: 1 }]), null, 'one point has no slope');
  t.equal(loopFigures([], [], [], []).regret.mean, null, 'nothing evaluated: no regret');
  // An evaluated environment without an unhinted return (all its unhinted episodes failed to score) is left out of
  // the returns and the band share, not turned into NaN (null in JSON).
  const g = loopFigures(accepted, [...evaluated, { envId: 'g', iteration: 4, feasible: true, returnHint: 1 } as never], rejected, metrics);
  t.equal(g.returns.noHint, (0.5 + 0.1 + 0.5) / 3, 'the unhinted mean over the three that have one');
  t.equal(g.returns.hint, (1 + 0.2 + 0.75 + 1) / 4);
  t.equal(g.regret.feasible, 2, 'no regret: not among the feasible regrets');
});
