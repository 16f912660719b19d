// Pure logic: when the budget's endgame stops waiting for a learner whose counts do not add up (assumeSettled, after
// SETTLE_WAIT_MS: on a loaded machine the last iteration's update can take longer than that), the tokens that update
// will train still count as spent, so the run does not issue one iteration too many and overshoot its budget.
import t from 'tap';
import { budgetAllows } from '../../../actors/coordinator/budget.js';
import { emptyStats } from '../../../actors/coordinator/run-stats.js';

const o = { budgetTokens: 1000, maxStaleness: 2 };

t.test('an endgame that stops waiting for the learner counts what its last update will train', async (t) => {
  const s = emptyStats(0);
  // Three iterations done at 100 sampled + 100 trained each; the learner has counted only two updates so far.
  s.iterationsDone = 3;
  s.trajectories = 6;
  s.tokens = { sampledDesigner: 150, sampledAgent: 150, sampledDone: 300, trained: 200, trainedUpdates: 2, labeledDesigner: 150, labeledAgent: 150 };
  s.recentCost = { sampled: [100, 100, 100], trained: [100, 100], episodes: [] };
  s.learner = { ...s.learner, updates: 2, lastReportedUpdate: 3, applied: 6 };
  // Spent 500 of 1000: far from the budget, iterations are still issued on the projection.
  t.ok(budgetAllows(s, 3, o, true) >= 1, 'far from the budget: the projection issues');
  // Spent 800: 200 left, but 100 of it is owed to the third update; an iteration costs 200.
  s.tokens.sampledDesigner = 300, s.tokens.sampledAgent = 300, s.tokens.sampledDone = 600;
  t.equal(budgetAllows(s, 3, o, false), 0, 'not settled and still waiting: nothing');
  t.equal(budgetAllows(s, 3, o, true), 1, '100 left after the owed update is half an iteration: one more');
  // Spent 850: 150 left, 50 after the owed update — less than half an iteration.
  s.tokens.sampledAgent = 350;
  t.equal(budgetAllows(s, 3, o, true), 0, 'given up waiting, the owed update still counts: no iteration past the budget');
  // Once the update's count is in (settled), the decision rests on the final count alone.
  s.tokens.trained = 300, s.tokens.trainedUpdates = 3, s.learner.updates = 3;
  t.equal(budgetAllows(s, 3, o, false), 0, 'settled at 950 spent: 50 left is less than half an iteration');
});
