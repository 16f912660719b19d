// The learner logic on a crash abandons every held message (back after ack_wait), writes nothing, and ignores a late
// result of the crashed trainer.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { TRAINED, effectKinds as kinds, freshStats, logicBatch, logicOptions } from './tiny.js';

const o = logicOptions({ iterationBatches: 5, flushAfterMs: 600_000, checkpointEvery: 100 });

t.test('crash: abandoned, nothing written', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: logicBatch('b0'), now: 0 }, o);
  transition(s, { type: 'received', ref: 'm1', streamSeq: 2, batch: logicBatch('b1'), now: 1 }, o);
  t.same(kinds(transition(s, { type: 'failed', error: new Error('trainer thread died'), now: 2 }, o).effects), ['log', 'abandon:m0', 'abandon:m1', 'crashed']);
  t.equal(s.stats.error, 'trainer thread died');
  t.same(transition(s, { type: 'trained', stats: TRAINED, now: 3 }, o).effects, [], 'a late result of the crashed learner is ignored');
});
