// The learner's trainer on its own worker thread takes the same steps as one on the calling thread (same rows, same
// start → the same weights, optimizer state and statistics); a thread resumed from its exported state goes on alike.
import t from 'tap';
import { ModelSession, initParameters } from '../../../model/index.js';
import { TINY } from './tiny.js';
import { localTrainer, rows, startTrainerThread } from './trainer-thread-setup.js';

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
  const local = localTrainer(session, initParameters(TINY, 7));
  t.teardown(() => local.close());
  const thread = await startTrainerThread(initParameters(TINY, 7));
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
  const resumed = await startTrainerThread(ts.weights, ts.optimizer);
  t.teardown(() => resumed.close());
  const [a, b] = [await local.update(rows()), await resumed.update(rows())];
  t.ok(Math.abs(a.loss - b.loss) < 1e-6, `a resumed thread continues the same run (loss ${a.loss} vs ${b.loss})`);
  t.ok(maxDiff(await local.weights(), await resumed.weights()) < 1e-5);
});
