// Pure logic: run stats fold accepted, rejected and labeled events and say when an iteration is complete.
import t from 'tap';
import { emptyStats, onAccepted, onLabeled, onRejected } from '../../../actors/coordinator/run-stats.js';
import { summary } from '../../../actors/coordinator/run-summary.js';

t.test('run stats fold events and complete iterations', async (t) => {
  const s = emptyStats(0);
  onAccepted(s, 0);
  onRejected(s, 0, 'probes');
  t.equal(onLabeled(s, { iteration: 0, accepted: true, regret: 0.5, returnHint: 0.75, returnNoHint: 0.25, feasible: true, trajectories: 9 }, 2), false);
  t.equal(onLabeled(s, { iteration: 0, accepted: false, trajectories: 1 }, 2), true, 'the second labeled batch completes the iteration');
  const m = summary(s, 10_000);
  t.equal(m.meanRegret, 0.5);
  t.same(m.rejectedByStage, { probes: 1 });
  t.equal(m.trajectoriesPerSec, 1);
});
