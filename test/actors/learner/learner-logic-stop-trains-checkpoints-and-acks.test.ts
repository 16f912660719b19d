// The learner logic on a graceful stop trains what is buffered, checkpoints even when checkpointEvery is not
// reached, acks what became final, and then does nothing more.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { TRAINED, effectKinds as kinds, freshStats, logicBatch, logicOptions } from './tiny.js';

const o = logicOptions({ iterationBatches: 5, flushAfterMs: 600_000, checkpointEvery: 100 });

t.test('stop: train the buffer, checkpoint, ack', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: logicBatch('b0'), now: 0 }, o);
  t.same(kinds(transition(s, { type: 'stop', now: 10 }, o).effects), ['train'], 'the incomplete iteration is trained on stop');
  t.same(kinds(transition(s, { type: 'trained', stats: TRAINED, now: 11 }, o).effects), ['applied', 'publish']);
  t.same(kinds(transition(s, { type: 'published', version: 1, now: 12 }, o).effects), ['metrics', 'updated', 'checkpoint'], 'checkpointEvery not reached, but the stop checkpoints');
  t.same(kinds(transition(s, { type: 'checkpointed', now: 13 }, o).effects), ['ack:m0', 'stopped']);
  t.equal(s.phase, 'stopped');
  t.same(transition(s, { type: 'received', ref: 'late', streamSeq: 2, batch: logicBatch('b1'), now: 14 }, o).effects, [], 'a stopped learner does nothing');
});
