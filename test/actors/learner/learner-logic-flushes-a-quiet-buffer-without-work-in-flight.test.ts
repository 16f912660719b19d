// The learner logic's flush policy, fed events at chosen times (no sleeps): an incomplete iteration that went quiet
// is not flushed while the pipeline still holds work (it asks again after each quiet period), a slow batch then
// joins its iteration, and a quiet lone batch is flushed once nothing is in flight, with the reason logged.
import t from 'tap';
import { initialLearnerState, transition, type LearnerEffect, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import { TRAINED, freshStats, logicOptions, traj } from './tiny.js';

const o = logicOptions({ iterationBatches: 2, flushAfterMs: 150, eta: 100, countsWorkInFlight: true, checkpointEvery: 100 });
const types = (fx: LearnerEffect<string>[]) => fx.map((f) => f.type);
const batch = (id: string, iteration: number) => ({ batchId: id, iteration, trajectories: [traj(`${id}-x`, [50, 51], 1, iteration), traj(`${id}-y`, [52, 53], -1, iteration)] });

t.test('a quiet buffer is flushed once no work is in flight', async (t) => {
  t.test('waits while work is in flight, then flushes', async (t) => {
    const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
    t.same(transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: batch('b0', 0), now: 0 }, o).effects, [{ type: 'wake', ms: 150 }], 'an incomplete iteration waits a quiet period');
    t.same(types(transition(s, { type: 'tick', now: 100 }, o).effects), ['wake'], 'not quiet long enough yet');
    for (const at of [150, 300, 450]) {
      t.same(types(transition(s, { type: 'tick', now: at }, o).effects), ['countWorkInFlight'], `quiet at ${at} ms: asks the pipeline`);
      t.same(transition(s, { type: 'workInFlight', count: 1, now: at }, o).effects, [{ type: 'wake', ms: 150 }], 'work in flight: waits another period, no train');
    }
    let fx = transition(s, { type: 'received', ref: 'm1', streamSeq: 2, batch: batch('b1', 0), now: 500 }, o).effects;
    t.same(types(fx), ['train'], 'the slow batch completes its iteration');
    t.equal((fx[0] as { rows: unknown[] }).rows.length, 4, 'one update of both batches');
    transition(s, { type: 'trained', stats: TRAINED, now: 510 }, o);
    fx = transition(s, { type: 'published', version: 1, now: 520 }, o).effects;
    t.same(types(fx), ['metrics', 'updated', 'wake']);
    t.equal((fx[1] as { report: { trajectories: number } }).report.trajectories, 4);

    // Iteration 1, one batch of two, nothing in flight: flushed after the quiet period.
    t.same(types(transition(s, { type: 'received', ref: 'm2', streamSeq: 3, batch: batch('b2', 1), now: 1000 }, o).effects), ['wake']);
    t.same(types(transition(s, { type: 'tick', now: 1149 }, o).effects), ['wake'], 'not flushed before the quiet period');
    t.same(types(transition(s, { type: 'tick', now: 1150 }, o).effects), ['countWorkInFlight']);
    fx = transition(s, { type: 'workInFlight', count: 0, now: 1150 }, o).effects;
    t.same(types(fx), ['log', 'train'], 'flushed');
    t.match((fx[0] as { line: string }).line, /flushing 2 trajectories .*iteration 1, 1 of 2 batches.*no work in flight/);
    t.equal((fx[1] as { rows: unknown[] }).rows.length, 2, 'the lone batch');
  });

  t.test('a batch that arrives while the pipeline is asked resets the quiet period', async (t) => {
    const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
    transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch: batch('b0', 0), now: 0 }, o);
    t.same(types(transition(s, { type: 'tick', now: 150 }, o).effects), ['countWorkInFlight']);
    transition(s, { type: 'received', ref: 'm1', streamSeq: 2, batch: batch('b9', 3), now: 160 }, o);
    t.same(types(transition(s, { type: 'workInFlight', count: 0, now: 170 }, o).effects), ['wake'], 'not quiet any more: no flush');
  });
});
