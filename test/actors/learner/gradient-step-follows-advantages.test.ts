// One learner update on a hand-made, on-policy batch raises log π of positive-advantage tokens and lowers it for
// negative ones, training only the sampled tokens (loss = −token-mean of r·A).
import t from 'tap';
import { ModelSession, packBatch } from '../../../model/index.js';
import { trajectoryRows, type Row } from '../../../actors/learner/index.js';
import { TINY, tinyTrainer, traj } from './tiny.js';

async function sumLogp(session: ModelSession, weights: Map<string, Float32Array>, row: Row): Promise<number> {
  const packed = packBatch([{ tokens: row.tokens }]);
  const { logp } = await session.score(packed, weights);
  let s = 0;
  for (const p of row.positions) s += logp[p - 1]!;
  return s;
}

t.test('positive advantages go up, negative go down', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const tr = tinyTrainer(session, 4096);
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
