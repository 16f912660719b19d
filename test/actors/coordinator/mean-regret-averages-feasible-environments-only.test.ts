// Pure logic: the run's headline regret is the mean over feasible environments (hinted return ≥ τ); the mean over
// every evaluated environment is reported beside it, and per iteration likewise.
import t from 'tap';
import { emptyStats, onAccepted, onLabeled } from '../../../actors/coordinator/run-stats.js';
import { iterationSummary, summary } from '../../../actors/coordinator/run-summary.js';

t.test('mean regret averages feasible environments only, the all-environment mean beside it', async (t) => {
  const s = emptyStats(0);
  onAccepted(s, 0);
  onAccepted(s, 0);
  onAccepted(s, 0);
  onLabeled(s, { iteration: 0, accepted: true, regret: 0.6, returnHint: 0.8, returnNoHint: 0.2, feasible: true, designerReward: 0.6, trajectories: 9 }, 3);
  onLabeled(s, { iteration: 0, accepted: true, regret: 0.2, returnHint: 0.7, returnNoHint: 0.5, feasible: true, designerReward: 0.2, trajectories: 9 }, 3);
  onLabeled(s, { iteration: 0, accepted: true, regret: -0.3, returnHint: 0.0, returnNoHint: 0.3, feasible: false, designerReward: -1, trajectories: 9 }, 3);
  const m = summary(s, 1000);
  t.equal(m.meanRegret, 0.4, 'feasible mean (0.6 + 0.2) / 2');
  t.equal(m.feasible, 2);
  t.ok(Math.abs(m.meanRegretAll - 0.5 / 3) < 1e-12, 'all evaluated: (0.6 + 0.2 − 0.3) / 3');
  const it = iterationSummary(s, 0);
  t.equal(it.meanRegret, 0.4, 'per iteration too');
  t.ok(Math.abs(it.meanDesignerReward - (-0.2 / 3)) < 1e-12, 'designer reward per iteration');
});
