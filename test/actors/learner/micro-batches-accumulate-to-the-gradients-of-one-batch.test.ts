// Gradient accumulation over micro-batches gives the same gradients as one batch (token-mean over the minibatch),
// and the gradients scale with the advantages.
import t from 'tap';
import { ModelSession } from '../../../model/index.js';
import { trajectoryRows } from '../../../actors/learner/index.js';
import { microBatches } from '../../../actors/learner/micro-batches.js';
import { TINY, tinyTrainer, traj } from './tiny.js';

t.test('micro-batches accumulate to the same gradients as one batch', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const limits = { contextLength: 32, vocab: 272 };
  const rows = [traj('a', [50, 51, 52, 53, 54], 1.5, 0), traj('b', [60, 61], -0.5, 0), traj('c', [70, 71, 72], 0.25, 0)].flatMap((x) => trajectoryRows(x, limits));
  t.equal(microBatches(rows, 8).length, 3, 'a budget of 8 tokens puts each row alone');
  t.equal(microBatches(rows, 1000).length, 1);
  const one = await tinyTrainer(session, 1000).gradients(rows), many = await tinyTrainer(session, 8).gradients(rows);
  let maxDiff = 0, maxAbs = 0;
  for (const [name, g] of one.grads) {
    const h = many.grads.get(name)!;
    for (let i = 0; i < g.length; i++) (maxDiff = Math.max(maxDiff, Math.abs(g[i]! - h[i]!))), (maxAbs = Math.max(maxAbs, Math.abs(g[i]!)));
  }
  t.ok(maxAbs > 1e-4, `gradients are not trivially zero (max |g| ${maxAbs})`);
  t.ok(maxDiff < 1e-6 + 1e-4 * maxAbs, `gradients agree (max diff ${maxDiff})`);
  // Doubling every advantage doubles the gradient: on each branch the objective is linear in A.
  const doubled = await tinyTrainer(session, 8).gradients(rows.map((r) => ({ ...r, advantage: 2 * r.advantage })));
  const w = 'tok_embeddings.weight';
  const ratio = doubled.grads.get(w)!.reduce((a, x) => a + Math.abs(x), 0) / one.grads.get(w)!.reduce((a, x) => a + Math.abs(x), 0);
  t.ok(Math.abs(ratio - 2) < 1e-3, `gradient scales with the advantage (x${ratio.toFixed(4)})`);
});
