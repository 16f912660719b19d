// A group member publishing the version it starts at may find another member published it first (weight sync
// refuses it as stale): the logic takes that as the group's version and starts at its own, publishing nothing more.
// A lone learner, or a member publishing after a round, whose version is taken fails instead (it was not its to lose).
import t from 'tap';
import { initialLearnerState, transition } from '../../../actors/learner/learner-logic.js';
import { TRAINED, effectKinds as kinds, freshStats, logicOptions, traj } from './tiny.js';

const taken = new Error('version 3 is stale');

t.test('a version another member published first is the group\'s at start, a failure elsewhere', async (t) => {
  const member = logicOptions({ group: true, hostId: 'learner-a' });
  const s = initialLearnerState<string>(freshStats(3), [], 0);
  t.same(transition(s, { type: 'start', published: 2, now: 0 }, member).effects, [{ type: 'publish', version: 3 }]);
  t.same(transition(s, { type: 'publishTaken', version: 3, error: taken, now: 1 }, member).effects, [{ type: 'started' }], 'the member is started');
  t.equal(s.stats.version, 3, 'at its own version');
  t.same(s.stats.published, [], 'which it does not count as its own publish');

  const lone = logicOptions();
  const l = initialLearnerState<string>(freshStats(3), [], 0);
  transition(l, { type: 'start', published: 2, now: 0 }, lone);
  t.same(kinds(transition(l, { type: 'publishTaken', version: 3, error: taken, now: 1 }, lone).effects), ['crashed'], 'a lone learner fails its start');
  t.equal(l.phase, 'crashed');

  // After a round, the member that publishes (the round's first) finding its version taken fails like any publish.
  const p = initialLearnerState<string>(freshStats(3), [], 0);
  transition(p, { type: 'start', published: 3, now: 0 }, member);
  const batch = { batchId: 'b0', iteration: 0, trajectories: [traj('a', [50], 1, 3), traj('b', [51], 1, 3)] };
  t.same(kinds(transition(p, { type: 'received', ref: 'm0', streamSeq: 1, batch, now: 1 }, member).effects), ['train']);
  t.same(transition(p, { type: 'trained', stats: TRAINED, members: ['learner-a', 'learner-b'], now: 2 }, member).effects.at(-1), { type: 'publish', version: 4 });
  const fx = kinds(transition(p, { type: 'publishTaken', version: 4, error: taken, now: 3 }, member).effects);
  t.same(fx, ['log', 'abandon:m0', 'crashed'], 'a taken version after a round crashes the member, abandoning what it holds');
});
