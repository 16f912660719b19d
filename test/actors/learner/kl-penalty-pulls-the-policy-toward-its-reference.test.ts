// With a KL penalty and rows whose advantage is 0, the penalty is the only gradient: updates move the policy toward
// the reference weights on the sampled tokens, so the reported KL falls. Without a penalty the same rows move
// nothing.
import t from 'tap';
import { PolicyTrainer, trajectoryRows } from '../../../actors/learner/index.js';
import { AdamW, ModelSession, initParameters, packBatch } from '../../../model/index.js';
import { TINY, traj } from './tiny.js';

const limits = { contextLength: 32, vocab: 272 };
const adamw = () => new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 100, minLr: 1e-2 }, weightDecay: 0 });

t.test('the penalty alone pulls log π toward the reference', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  // Other initial weights, scaled up so the reference's next-token distributions are far from the start's.
  const reference = new Map([...initParameters(TINY, 8)].map(([k, v]) => [k, v.map((x) => 3 * x)]));
  const trainer = new PolicyTrainer(session, initParameters(TINY, 7), adamw(), {
    kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096, kl: { beta: 1, reference },
  });
  const rows0 = [...trajectoryRows(traj('a', [50, 51, 52, 53], 0, 0), limits), ...trajectoryRows(traj('b', [60, 61, 62], 0, 0), limits)];
  // On-policy behaviour log-probs, so the importance ratio plays no part.
  const rows = await Promise.all(rows0.map(async (r) => {
    const { logp } = await session.score(packBatch([{ tokens: r.tokens }]), trainer.weights);
    return { ...r, behaviour: Float32Array.from(r.positions, (p) => logp[p - 1]!) };
  }));
  const kls: number[] = [];
  for (let step = 0; step < 20; step++) kls.push((await trainer.update(rows)).kl!);
  t.ok(kls[0]! > 0.05, `the start weights are away from the reference (KL ${kls[0]!.toFixed(4)})`);
  t.ok(kls[19]! < kls[0]! / 2, `KL falls under the penalty: ${kls[0]!.toFixed(4)} → ${kls[19]!.toFixed(4)}`);

  const plain = new PolicyTrainer(session, initParameters(TINY, 7), adamw(), { kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096 });
  const start = new Map([...plain.weights].map(([k, v]) => [k, v.slice()]));
  const stats = await plain.update(rows);
  t.equal(stats.kl, undefined, 'no penalty, no KL figure');
  const moved = [...plain.weights].some(([k, v]) => v.some((x, i) => x !== start.get(k)![i]));
  t.notOk(moved, 'zero advantages without a penalty leave the weights as they were');
});
