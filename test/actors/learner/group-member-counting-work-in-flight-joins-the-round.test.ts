// A learner-group member asking the pipeline for work in flight (before flushing a quiet buffer) joins a round the
// others started, with what it holds, instead of ignoring it: a member that sits a round out is dropped from it after
// the timeout and its own next round is refused as one the group already committed (a cause of bench:learners
// stalling). The count that comes back afterwards changes nothing. Pure learner logic, events at chosen times.
import t from 'tap';
import { initialLearnerState, transition, type LearnerEffect, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { freshStats, logicOptions, traj } from './tiny.js';

const o = logicOptions({ group: true, minibatchTrajectories: 4, flushAfterMs: 150, eta: 100, countsWorkInFlight: true });
const types = (fx: LearnerEffect<string>[]) => fx.map((f) => f.type);

t.test('a member counting work in flight joins the round', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  t.same(types(transition(s, { type: 'start', published: 0, now: 0 }, o).effects), ['started']);
  const batch = { batchId: 'b0', iteration: 0, trajectories: [traj('b0-x', [50, 51], 1, 0), traj('b0-y', [52, 53], -1, 0)] };
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch, now: 0 }, o);
  t.same(types(transition(s, { type: 'tick', now: 150 }, o).effects), ['countWorkInFlight'], 'quiet: it asks the pipeline');
  const fx = transition(s, { type: 'round', round: 1, now: 160 }, o).effects;
  t.same(types(fx), ['train'], 'a round of the others starts its update at once');
  t.same((fx[0] as { ids: string[] }).ids, ['b0-x', 'b0-y'], 'with what it holds');
  t.same(transition(s, { type: 'workInFlight', count: 0, now: 170 }, o).effects, [], 'the late count changes nothing');
});
