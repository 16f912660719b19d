// The learner logic chooses the version it starts at (`start` with the published version) and publishes it; once that
// is `published`, staleness is counted from it, and a late `start` changes nothing. Fed events with no server and no clock.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { TRAINED, effectKinds as kinds, freshStats, logicOptions, traj } from './tiny.js';

const o = logicOptions({ eta: 2 });

t.test('staleness counts from the aligned version', async (t) => {
  // The checkpoint says version 1; the cluster had published up to 4 before the crash: the learner publishes 5.
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(1), [], 0);
  t.same(transition(s, { type: 'start', published: 4, now: 0 }, o).effects, [{ type: 'publish', version: 5 }], 'it publishes past the published version');
  t.same(transition(s, { type: 'published', version: 5, now: 0 }, o).effects, [{ type: 'started' }], 'then it is started');
  t.equal(s.stats.version, 5, 'the learner is at the aligned version');
  t.same(s.stats.published, [5], 'and counts it as published by this process');

  const batch = { batchId: 'b0', iteration: 0, trajectories: [traj('old', [50], 1, 2), traj('new', [51], 1, 3), traj('newer', [52], -1, 4)] };
  const fx = transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch, now: 1 }, o).effects;
  t.same(fx[0], { type: 'drop', version: 5, reason: 'stale', ids: ['old'] }, 'sampled at 2: three versions behind 5, past eta 2');
  t.same(kinds(fx).slice(1), ['train'], 'sampled at 3 and 4: admitted and trained');

  t.same(transition(s, { type: 'trained', stats: TRAINED, now: 2 }, o).effects.find((f) => f.type === 'publish'), { type: 'publish', version: 6 }, 'its next version follows the aligned one');
  transition(s, { type: 'published', version: 6, now: 3 }, o);
  transition(s, { type: 'checkpointed', now: 4 }, o);
  t.equal(s.stats.version, 6, 'its own update moved it on');
  t.same(transition(s, { type: 'start', published: 9, now: 5 }, o).effects, [], 'a late start does nothing');
  t.equal(s.stats.version, 6, 'and does not move it');
  t.same(s.stats.published, [5, 6]);
});
