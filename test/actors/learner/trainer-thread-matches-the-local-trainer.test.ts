// The learner's trainer on its own worker thread takes the same steps as one on the calling thread (same rows, same
// start → the same weights, optimizer state and statistics), and its failures come back as typed errors: an update
// the trainer refuses, a thread that dies mid-run, a thread that cannot start.
import t from 'tap';
import { AdamW, ModelSession, initParameters, validateDecoderConfig } from '../../../model/index.js';
import { LocalTrainer, PolicyTrainer, ThreadTrainer, isTrainerThreadError, trajectoryRows, type Row } from '../../../actors/learner/index.js';
import { TINY, traj } from './tiny.js';

const ADAMW = { schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 }, weightDecay: 0 };
const OPTIONS = { kind: 'behaviour' as const, clipEps: 0.2, tisCap: 2, epochs: 2, microBatchTokens: 16 };
const limits = { contextLength: 32, vocab: 272 };
const config = validateDecoderConfig(TINY);
const rows = (): Row[] =>
  [traj('a', [50, 51, 52, 53, 54], 1.5, 0), traj('b', [60, 61], -0.5, 0), traj('c', [70, 71, 72], 0.25, 0, [-2, -4, -1])].flatMap((x) => trajectoryRows(x, limits));

const maxDiff = (a: Map<string, Float32Array>, b: Map<string, Float32Array>): number => {
  let d = 0;
  for (const [k, x] of a) {
    const y = b.get(k)!;
    for (let i = 0; i < x.length; i++) d = Math.max(d, Math.abs(x[i]! - y[i]!));
  }
  return d;
};

t.test('same updates on a thread as on the calling thread', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  const local = new LocalTrainer(new PolicyTrainer(session, initParameters(TINY, 7), new AdamW(ADAMW), OPTIONS));
  t.teardown(() => local.close());
  const thread = await ThreadTrainer.start({ config, params: initParameters(TINY, 7), optimizer: null, adamw: ADAMW, trainer: OPTIONS, threads: 1 });
  t.teardown(() => thread.close());
  t.equal(thread.where, 'thread');
  t.equal(thread.step, 0);
  for (let i = 0; i < 3; i++) {
    const a = await local.update(rows()), b = await thread.update(rows());
    t.ok(Math.abs(a.loss - b.loss) < 1e-6 && Math.abs(a.gradNorm - b.gradNorm) < 1e-5 * Math.max(1, a.gradNorm), `update ${i}: loss ${a.loss} vs ${b.loss}, grad norm ${a.gradNorm} vs ${b.gradNorm}`);
    t.equal(b.tokens, a.tokens);
    t.equal(b.optimizerStep, a.optimizerStep);
  }
  t.equal(thread.step, 6, 'the step count follows the thread (3 updates × 2 epochs)');
  const w = await thread.weights();
  t.ok(maxDiff(await local.weights(), w) < 1e-5, 'same weights');
  t.ok(maxDiff(w, initParameters(TINY, 7)) > 1e-4, 'and they moved');
  w.get('tok_embeddings.weight')!.fill(0);
  t.ok(maxDiff(await local.weights(), await thread.weights()) < 1e-5, 'weights() hands out a copy: changing it does not touch the trainer');
  const [ls, ts] = [await local.state(), await thread.state()];
  t.equal(ts.optimizer.step, ls.optimizer.step);
  t.ok(maxDiff(ls.optimizer.m, ts.optimizer.m) < 1e-5 && maxDiff(ls.optimizer.v, ts.optimizer.v) < 1e-5, 'same optimizer moments');

  // Resuming from the exported state continues identically.
  const resumed = await ThreadTrainer.start({ config, params: ts.weights, optimizer: ts.optimizer, adamw: ADAMW, trainer: OPTIONS, threads: 1 });
  t.teardown(() => resumed.close());
  const [a, b] = [await local.update(rows()), await resumed.update(rows())];
  t.ok(Math.abs(a.loss - b.loss) < 1e-6, `a resumed thread continues the same run (loss ${a.loss} vs ${b.loss})`);
  t.ok(maxDiff(await local.weights(), await resumed.weights()) < 1e-5);
});

t.test('an update the trainer refuses is a typed error, and the thread keeps serving', async (t) => {
  const thread = await ThreadTrainer.start({ config, params: initParameters(TINY, 1), optimizer: null, adamw: ADAMW, trainer: OPTIONS, threads: 1 });
  t.teardown(() => thread.close());
  const bad: Row = { trajId: 'x', tokens: [1, 2, 100_000], positions: [2], behaviour: new Float32Array([-1]), advantage: 1 };
  const err = await thread.update([bad]).then(() => null, (e: unknown) => e);
  t.ok(isTrainerThreadError(err), `typed: ${String(err)}`);
  t.match((err as Error).message, /'update'/, 'names the request that failed');
  const ok = await thread.update(rows());
  t.equal(ok.optimizerStep, 2, 'the next update runs');
});

t.test('a thread that dies fails what is in flight and everything after, typed', async (t) => {
  const thread = await ThreadTrainer.start({ config, params: initParameters(TINY, 1), optimizer: null, adamw: ADAMW, trainer: OPTIONS, threads: 1 });
  const inFlight = thread.update(rows()).then(() => null, (e: unknown) => e);
  await thread.kill();
  const err = await inFlight;
  t.ok(err === null || isTrainerThreadError(err), 'in flight: finished before the kill, or a typed error');
  const after = await thread.weights().then(() => null, (e: unknown) => e);
  t.ok(isTrainerThreadError(after), `after: ${String(after)}`);
  t.match((after as Error).message, /exited/);
  await thread.close(); // a no-op on a dead thread
});

t.test('a thread that cannot start says why', async (t) => {
  const params = initParameters(TINY, 1);
  const err = await ThreadTrainer.start({ config, params, optimizer: { step: -1, m: new Map(), v: new Map() }, adamw: ADAMW, trainer: OPTIONS, threads: 1 }).then(() => null, (e: unknown) => e);
  t.ok(isTrainerThreadError(err), String(err));
  t.match((err as Error).message, /could not start.*step/);
});
