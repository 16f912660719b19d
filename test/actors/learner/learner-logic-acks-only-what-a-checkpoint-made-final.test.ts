// The learner logic, fed events with no server and no clock: a held message is acked only after the checkpoint
// that covers the update holding its trajectories; a drop is written before the ack it allows; a redelivered
// message whose trajectories are all final is acked at once and counted as duplicates.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { TRAINED, effectKinds as kinds, freshStats, logicOptions, traj } from './tiny.js';

const o = logicOptions();

t.test('the learner acks only what a checkpoint made final', async (t) => {
  t.test('acked after the checkpoint, not before', async (t) => {
    const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
    const batch = { batchId: 'b0', iteration: 0, trajectories: [traj('x', [50, 51], 1, 0), traj('y', [52], -1, 0)] };
    let fx = transition(s, { type: 'received', ref: 'm0', streamSeq: 7, batch, now: 0 }, o).effects;
    t.same(kinds(fx), ['train'], 'a full minibatch trains at once; nothing acked');
    t.equal((fx[0] as { rows: unknown[] }).rows.length, 2);
    fx = transition(s, { type: 'trained', stats: TRAINED, now: 5 }, o).effects;
    t.same(kinds(fx), ['applied', 'publish']);
    t.same(fx[0], { type: 'applied', update: 1, version: 0, ids: ['x', 'y'] });
    t.same(fx[1], { type: 'publish', version: 1 });
    fx = transition(s, { type: 'published', version: 1, now: 6 }, o).effects;
    t.same(fx, [{ type: 'checkpoint', state: { version: 1, updates: 1, applied: 2, dropped: 0, lastStreamSeq: 7, skipped: 0, trainedTokens: 4, stalenessMax: 0, stalenessHistogram: [2] } }], 'the checkpoint records the covered stream sequence and the staleness accounting');
    fx = transition(s, { type: 'checkpointed', now: 7 }, o).effects;
    t.same(kinds(fx), ['ack:m0', 'metrics', 'updated', 'wake'], 'acked right after the checkpoint, then reported');
    t.same(s.stats.published, [1]);
    t.equal(s.phase, 'idle');

    // The same message again (a redelivery): all final, acked at once, counted, never trained again.
    fx = transition(s, { type: 'received', ref: 'm0-again', streamSeq: 7, batch, now: 10 }, o).effects;
    t.same(kinds(fx), ['ack:m0-again', 'wake']);
    t.equal(s.stats.duplicates, 2);
    t.equal(s.buffer.length, 0);
  });

  t.test('a stale trajectory is dropped (written) before the ack it allows', async (t) => {
    const s: LearnerLogicState<string> = initialLearnerState(freshStats(5), [], 0);
    const batch = { batchId: 'b1', iteration: 0, trajectories: [traj('old', [50], 1, 2)] };
    const fx = transition(s, { type: 'received', ref: 'm1', streamSeq: 3, batch, now: 0 }, o).effects;
    t.same(kinds(fx), ['drop', 'ack:m1', 'wake'], 'the drop line comes first, then the ack');
    t.same(fx[0], { type: 'drop', version: 5, reason: 'stale', ids: ['old'] });
    t.equal(s.stats.droppedStale, 1);
    t.equal(s.stats.lastStreamSeq, 3);
  });

  t.test('a checkpoint waits for every trajectory of a message', async (t) => {
    const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
    // Three trajectories, minibatches of two: the message is not final after the first update's checkpoint.
    const batch = { batchId: 'b2', iteration: 0, trajectories: [traj('a', [50], 1, 0), traj('b', [51], -1, 0), traj('c', [52], 1, 0)] };
    transition(s, { type: 'received', ref: 'm2', streamSeq: 9, batch, now: 0 }, o);
    transition(s, { type: 'trained', stats: TRAINED, now: 1 }, o);
    transition(s, { type: 'published', version: 1, now: 2 }, o);
    const fx = transition(s, { type: 'checkpointed', now: 3 }, o).effects;
    t.notOk(kinds(fx).includes('ack:m2'), 'c is not applied yet: no ack');
    t.equal(s.pending.length, 1, 'still held');
  });
});
