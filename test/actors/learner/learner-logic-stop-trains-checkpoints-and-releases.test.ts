// The learner logic on a graceful stop trains what is buffered, checkpoints, acks what became final and releases
// what did not; a crash instead abandons every held message (back after ack_wait) and writes nothing.
import t from 'tap';
import { initialLearnerState, transition, type LearnerEffect, type LearnerLogicState } from '../../../actors/learner/index.js';
import { TRAINED, freshStats, logicOptions, traj } from './tiny.js';

const o = logicOptions({ iterationBatches: 5, flushAfterMs: 600_000, checkpointEvery: 100 });
const kinds = (fx: LearnerEffect<string>[]) => fx.map((f) => ('ref' in f ? `${f.type}:${f.ref}` : f.type));
const batch = (id: string) => ({ batchId: id, iteration: 0, trajectories: [traj(`${id}-p`, [50, 51], 1, 0), traj(`${id}-q`, [52], -1, 0)] });

t.test('stop: train the buffer, checkpoint, ack', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: batch('b0'), now: 0 }, o);
  t.same(kinds(transition(s, { type: 'stop', now: 10 }, o).effects), ['train'], 'the incomplete iteration is trained on stop');
  t.same(kinds(transition(s, { type: 'trained', stats: TRAINED, now: 11 }, o).effects), ['applied', 'publish']);
  t.same(kinds(transition(s, { type: 'published', version: 1, now: 12 }, o).effects), ['metrics', 'updated', 'checkpoint'], 'checkpointEvery not reached, but the stop checkpoints');
  t.same(kinds(transition(s, { type: 'checkpointed', now: 13 }, o).effects), ['ack:m0', 'stopped']);
  t.equal(s.phase, 'stopped');
  t.same(transition(s, { type: 'received', ref: 'late', streamSeq: 2, batch: batch('b1'), now: 14 }, o).effects, [], 'a stopped learner does nothing');
});

t.test('stop without trainOnStop: nothing to checkpoint, held messages released', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: batch('b0'), now: 0 }, o);
  t.same(kinds(transition(s, { type: 'stop', now: 10 }, { ...o, trainOnStop: false }).effects), ['release:m0', 'stopped']);
});

t.test('crash: abandoned, nothing written', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: batch('b0'), now: 0 }, o);
  transition(s, { type: 'received', ref: 'm1', streamSeq: 2, batch: batch('b1'), now: 1 }, o);
  t.same(kinds(transition(s, { type: 'failed', error: new Error('trainer thread died'), now: 2 }, o).effects), ['log', 'abandon:m0', 'abandon:m1', 'crashed']);
  t.equal(s.stats.error, 'trainer thread died');
  t.same(transition(s, { type: 'trained', stats: TRAINED, now: 3 }, o).effects, [], 'a late result of the crashed learner is ignored');
});
