// One learner update on a hand-made batch raises log π of positive-advantage tokens and lowers it for negative ones;
// gradient accumulation over micro-batches gives the same step as one batch (token-mean over the minibatch).
import t from 'tap';
import { AdamW, ModelSession, initParameters, packBatch } from '../../../model/index.js';
import { PolicyTrainer, microBatches, trajectoryRows, type Row } from '../../../actors/learner/index.js';
import { TINY, traj } from './tiny.js';

async function sumLogp(session: ModelSession, weights: Map<string, Float32Array>, row: Row): Promise<number> {
  const packed = packBatch([{ tokens: row.tokens }]);
  const { logp } = await session.score(packed, weights);
  let s = 0;
  for (const p of row.positions) s += logp[p - 1]!;
  return s;
}

function trainer(session: ModelSession, microBatchTokens: number): PolicyTrainer {
  const opt = new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 }, weightDecay: 0 });
  return new PolicyTrainer(session, initParameters(TINY, 7), opt, { kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens });
}

t.test('positive advantages go up, negative go down', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const tr = trainer(session, 4096);
  const limits = { contextLength: 32, vocab: 272 };
  // Behaviour log-probs = the current policy's, so the update is on-policy (ratio 1).
  const rows0 = [...trajectoryRows(traj('up', [50, 51, 52, 53], 1, 0), limits), ...trajectoryRows(traj('down', [60, 61, 62], -1, 0), limits)];
  const onPolicy = await Promise.all(rows0.map(async (r) => {
    const { logp } = await session.score(packBatch([{ tokens: r.tokens }]), tr.weights);
    return { ...r, behaviour: Float32Array.from(r.positions, (p) => logp[p - 1]!) };
  }));
  const before = await Promise.all(onPolicy.map((r) => sumLogp(session, tr.weights, r)));
  const stats = await tr.update(onPolicy);
  const after = await Promise.all(onPolicy.map((r) => sumLogp(session, tr.weights, r)));
  t.ok(after[0]! > before[0]!, `positive advantage: ${before[0]!.toFixed(4)} -> ${after[0]!.toFixed(4)}`);
  t.ok(after[1]! < before[1]!, `negative advantage: ${before[1]!.toFixed(4)} -> ${after[1]!.toFixed(4)}`);
  t.equal(stats.tokens, 7, 'trained tokens are the sampled ones only');
  t.equal(stats.processedTokens, 13);
  t.ok(Math.abs(stats.meanRatio - 1) < 1e-4, 'on-policy: mean ratio 1');
  t.equal(stats.clipFraction, 0);
  t.ok(Math.abs(stats.loss - -(4 * 1 + 3 * -1) / 7) < 1e-4, 'loss = −token-mean of r·A');
  t.equal(stats.optimizerStep, 1);
});

t.test('micro-batches accumulate to the same gradients as one batch', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const limits = { contextLength: 32, vocab: 272 };
  const rows = [traj('a', [50, 51, 52, 53, 54], 1.5, 0), traj('b', [60, 61], -0.5, 0), traj('c', [70, 71, 72], 0.25, 0)].flatMap((x) => trajectoryRows(x, limits));
  t.equal(microBatches(rows, 8).length, 3, 'a budget of 8 tokens puts each row alone');
  t.equal(microBatches(rows, 1000).length, 1);
  const one = await trainer(session, 1000).gradients(rows), many = await trainer(session, 8).gradients(rows);
  let maxDiff = 0, maxAbs = 0;
  for (const [name, g] of one.grads) {
    const h = many.grads.get(name)!;
    for (let i = 0; i < g.length; i++) (maxDiff = Math.max(maxDiff, Math.abs(g[i]! - h[i]!))), (maxAbs = Math.max(maxAbs, Math.abs(g[i]!)));
  }
  t.ok(maxAbs > 1e-4, `gradients are not trivially zero (max |g| ${maxAbs})`);
  t.ok(maxDiff < 1e-6 + 1e-4 * maxAbs, `gradients agree (max diff ${maxDiff})`);
  // Doubling every advantage doubles the gradient: on each branch the objective is linear in A.
  const doubled = await trainer(session, 8).gradients(rows.map((r) => ({ ...r, advantage: 2 * r.advantage })));
  const w = 'tok_embeddings.weight';
  const ratio = doubled.grads.get(w)!.reduce((a, x) => a + Math.abs(x), 0) / one.grads.get(w)!.reduce((a, x) => a + Math.abs(x), 0);
  t.ok(Math.abs(ratio - 2) < 1e-3, `gradient scales with the advantage (x${ratio.toFixed(4)})`);
});
