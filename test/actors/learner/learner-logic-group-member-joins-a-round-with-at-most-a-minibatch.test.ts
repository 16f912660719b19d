// A learner-group member joins the others' round with at most a minibatch, as its own rounds take: batches that came
// while it counted work in flight (it takes none then) wait for the next round instead of all going into this one.
// Before, it joined with its whole buffer, so a member that fell behind brought rounds larger than minibatchTrajectories
// and the group's trajectories took fewer rounds than the options say. Pure learner logic, events at chosen times.
import t from 'tap';
import { initialLearnerState, transition, type LearnerEffect, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { freshStats, logicOptions, traj } from './tiny.js';

const o = logicOptions({ group: true, minibatchTrajectories: 4, flushAfterMs: 150, eta: 100, countsWorkInFlight: true });
const types = (fx: LearnerEffect<string>[]) => fx.map((f) => f.type);
const batch = (id: string) => ({ batchId: id, iteration: 0, trajectories: [traj(`${id}-x`, [50, 51], 1, 0), traj(`${id}-y`, [52, 53], -1, 0)] });

t.test('a group member joins a round with at most a minibatch', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  transition(s, { type: 'start', published: 0, now: 0 }, o);
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: batch('b0'), now: 0 }, o);
  t.same(types(transition(s, { type: 'tick', now: 150 }, o).effects), ['countWorkInFlight'], 'two trajectories, quiet: it asks the pipeline');
  t.same(types(transition(s, { type: 'received', ref: 'm1', streamSeq: 2, batch: batch('b1'), now: 160 }, o).effects), [], 'a batch while it counts: held');
  transition(s, { type: 'received', ref: 'm2', streamSeq: 3, batch: batch('b2'), now: 170 }, o);
  const fx = transition(s, { type: 'round', round: 1, now: 180 }, o).effects;
  t.same(types(fx), ['train'], 'it joins the round at once');
  t.same((fx[0] as { ids: string[] }).ids, ['b0-x', 'b0-y', 'b1-x', 'b1-y'], 'with a minibatch, oldest first');
  t.equal(s.buffer.length, 2, "b2's trajectories wait for the next round");
});
