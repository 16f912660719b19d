// The trainer's two-phase passes (forward half, dJ/dlogπ, backward half) make the same update as a scoring pass then
// the one-piece training graph: same statistics, same weights after two epochs of the 'decoupled' objective with a KL
// penalty, over several micro-batches; and a micro-batch costs one forward and one backward instead of two forwards.
import t from 'tap';
import { AdamW, ModelSession, backwardFlops, initParameters, validateDecoderConfig } from '../../../model/index.js';
import { PolicyTrainer, trajectoryRows } from '../../../actors/learner/index.js';
import { microBatches } from '../../../actors/learner/micro-batches.js';
import type { PolicyTrainerOptions } from '../../../actors/learner/policy-trainer.js';
import { TINY, traj } from './tiny.js';

t.test('a two-phase update matches the update of a scoring pass and the training graph', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score', 'split'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const limits = { contextLength: 32, vocab: 272 };
  const rows = [
    traj('a', [50, 51, 52, 53, 54, 55, 56], 1.5, 0), traj('b', [60, 61], -0.5, 0, [-2, -6]), traj('c', [70, 71, 72], 0.25, 0, [-1, -3, -5]),
    traj('d', [80, 81, 82, 83], -1, 0),
  ].flatMap((x) => trajectoryRows(x, limits));
  const options: PolicyTrainerOptions = {
    kind: 'decoupled', clipEps: 0.2, tisCap: 2, epochs: 2, microBatchTokens: 16, kl: { beta: 0.1, reference: initParameters(TINY, 9) },
  };
  t.ok(microBatches(rows, options.microBatchTokens).length >= 3, 'several micro-batches');
  const trainer = (twoPhase: boolean): PolicyTrainer => {
    const opt = new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 }, weightDecay: 0 });
    return new PolicyTrainer(session, initParameters(TINY, 7), opt, { ...options, twoPhase });
  };
  const before = initParameters(TINY, 7);
  const old = trainer(false), split = trainer(true);
  const a = await old.update(rows), b = await split.update(rows);
  for (const k of ['loss', 'clipFraction', 'tisFraction', 'meanRatio', 'kl', 'gradNorm'] as const) {
    t.ok(Math.abs(a[k]! - b[k]!) <= 1e-5 * Math.max(1, Math.abs(a[k]!)), `${k}: ${b[k]} = ${a[k]}`);
  }
  let diff = 0, moved = 0;
  for (const [name, w] of old.weights) {
    const v = split.weights.get(name)!, w0 = before.get(name)!;
    for (let i = 0; i < w.length; i++) (diff = Math.max(diff, Math.abs(w[i]! - v[i]!))), (moved = Math.max(moved, Math.abs(w[i]! - w0[i]!)));
  }
  t.ok(moved > 1e-3, `the update moved the weights (max ${moved.toExponential(2)})`);
  t.ok(diff <= 1e-5, `weights after two epochs agree (max diff ${diff.toExponential(2)})`);
  // A trainer opened from its setup, as the learner builds one, compiles the graphs two-phase needs (the scoring one
  // for the KL reference only) and makes the same update.
  const adamw = { schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 }, weightDecay: 0 };
  const opened = await PolicyTrainer.open({ config: validateDecoderConfig(TINY), params: initParameters(TINY, 7), optimizer: null, adamw, trainer: { ...options, twoPhase: true }, threads: 1 });
  t.teardown(() => opened.session.release());
  await opened.update(rows);
  let openedDiff = 0;
  for (const [name, w] of split.weights) {
    const v = opened.weights.get(name)!;
    for (let i = 0; i < w.length; i++) openedDiff = Math.max(openedDiff, Math.abs(w[i]! - v[i]!));
  }
  t.ok(openedDiff <= 1e-6, `an opened two-phase trainer makes the same update (max diff ${openedDiff.toExponential(2)})`);

  // One forward ('score') and one backward ('train', two forwards' FLOPs and the recomputed scores) per micro-batch and epoch, plus the KL
  // reference's scoring pass; the old path's training pass counts three forwards.
  const p = split.phases(), q = old.phases(), mbs = microBatches(rows, options.microBatchTokens).length;
  t.equal(p.score!.calls, 2 * 2 * mbs, 'forward and reference scoring per micro-batch and epoch');
  t.equal(p.train!.calls, 2 * mbs, 'one backward per micro-batch and epoch');
  const backward = microBatches(rows, options.microBatchTokens).reduce((n, mb) => n + backwardFlops(validateDecoderConfig(TINY), mb.length, Math.max(...mb.map((r) => r.tokens.length))), 0);
  t.equal(p.train!.flops, 2 * backward, 'the backwards count backwardFlops each');
  t.ok(p.train!.flops > p.score!.flops, 'more than forward plus reference: two forwards and the recomputed attention scores');
  t.equal(q.train!.flops, 1.5 * q.score!.flops, 'the one-piece training passes count three forwards each');
});
