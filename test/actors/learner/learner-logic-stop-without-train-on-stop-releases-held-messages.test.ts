// The learner logic on a graceful stop with trainOnStop off trains nothing, so nothing becomes final: the messages
// it holds are released (nak'd, so redelivered at once) rather than acked.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { effectKinds as kinds, freshStats, logicBatch, logicOptions } from './tiny.js';

const o = logicOptions({ iterationBatches: 5, flushAfterMs: 600_000, checkpointEvery: 100 });

t.test('stop without trainOnStop: nothing to checkpoint, held messages released', async (t) => {
  const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
  transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: logicBatch('b0'), now: 0 }, o);
  t.same(kinds(transition(s, { type: 'stop', now: 10 }, { ...o, trainOnStop: false }).effects), ['release:m0', 'stopped']);
});
