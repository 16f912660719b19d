// Joining the others' round is the learner logic's decision: a `round` event records the newest round the group began,
// and the member takes part, with what it holds, as soon as it is started and idle, after whichever event that is,
// not only on the `round` event itself (it comes once, maybe while the member is busy with its own update or still
// publishing the version it starts at). A member stopping joins none.
import t from 'tap';
import { initialLearnerState, transition, type LearnerEffect } from '../../../actors/learner/learner-logic.js';
import { TRAINED, freshStats, logicOptions, traj } from './tiny.js';

const o = logicOptions({ group: true, hostId: 'learner-a', minibatchTrajectories: 2, eta: 100 });
const types = (fx: LearnerEffect<string>[]) => fx.map((f) => f.type);

t.test('a group member joins a round the others began once it is idle', async (t) => {
  // Starting: it publishes its own version (ahead of the published one); a round heard meanwhile waits for that.
  const s = initialLearnerState<string>(freshStats(2), [], 0);
  t.same(types(transition(s, { type: 'start', published: 1, now: 0 }, o).effects), ['publish']);
  t.same(transition(s, { type: 'round', round: 1, now: 1 }, o).effects, [], 'not while it publishes its start version');
  t.same(types(transition(s, { type: 'published', version: 2, now: 2 }, o).effects), ['started', 'train'], 'then it joins round 1 at once, with nothing');

  // Busy with round 1 when round 2 begins: it joins round 2 right after round 1 is done, with what it holds by then.
  t.same(transition(s, { type: 'round', round: 2, now: 3 }, o).effects, [], 'not while its update runs');
  const batch = { batchId: 'b0', iteration: 0, trajectories: [traj('x', [50], 1, 2)] };
  t.same(types(transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch, now: 4 }, o).effects), [], 'one trajectory: buffered');
  transition(s, { type: 'trained', stats: TRAINED, members: ['learner-b', 'learner-a'], now: 5 }, o);
  const fx = transition(s, { type: 'checkpointed', now: 6 }, o).effects;
  t.same(types(fx).slice(-1), ['train'], 'round 1 done: it joins round 2');
  t.same((fx.at(-1) as { ids: string[] }).ids, ['x'], 'with the trajectory it holds, short of a minibatch');

  // A member stopping joins no round: here round 3 begins while round 2's checkpoint is written and the host drains.
  transition(s, { type: 'trained', stats: TRAINED, members: ['learner-b', 'learner-a'], now: 7 }, o);
  transition(s, { type: 'stop', now: 8 }, o);
  t.same(transition(s, { type: 'round', round: 3, now: 9 }, o).effects, [], 'round 3 begins');
  const last = types(transition(s, { type: 'checkpointed', now: 10 }, o).effects);
  t.notOk(last.includes('train'), 'it does not join it');
  t.equal(last.at(-1), 'stopped', 'it stops');
});
