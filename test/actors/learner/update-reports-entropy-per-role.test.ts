// Each update reports, per role, the entropy estimate −mean log π_θ of the sampled tokens under the weights it
// started from (first epoch), with the role's tokens; checked against log-probs scored independently, and a role
// with no tokens reports none (NaN, left out of the metrics).
import t from 'tap';
import { AdamW, ModelSession, initParameters, packBatch } from '../../../model/index.js';
import { PolicyTrainer, trajectoryRows } from '../../../actors/learner/index.js';
import { TINY, traj } from './tiny.js';

const limits = { contextLength: 32, vocab: 272 };

t.test('entropy per role', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const weights = initParameters(TINY, 3);
  const scored = new Map<string, number[]>();
  const rows = [
    ...trajectoryRows({ ...traj('d', [50, 51, 52, 53], 1, 0), role: 'designer' }, limits),
    ...trajectoryRows(traj('a', [60, 61, 200], -0.5, 0), limits),
    ...trajectoryRows(traj('b', [7], 0.25, 0), limits),
  ];
  for (const r of rows) {
    const { logp } = await session.score(packBatch([{ tokens: r.tokens }]), weights);
    scored.set(r.trajId, r.positions.map((p) => logp[p - 1]!));
  }
  const nll = (ids: string[]) => {
    const xs = ids.flatMap((id) => scored.get(id)!);
    return -xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const trainer = new PolicyTrainer(session, new Map([...weights].map(([k, v]) => [k, v.slice()])),
    new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 } }), { kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 3, microBatchTokens: 4096 });
  const stats = await trainer.update(rows);
  t.ok(Math.abs(stats.byRole.designer.entropy - nll(['d'])) < 1e-5, `designer ${stats.byRole.designer.entropy} = ${nll(['d'])}`);
  t.ok(Math.abs(stats.byRole.agent.entropy - nll(['a', 'b'])) < 1e-5, `agent ${stats.byRole.agent.entropy} = ${nll(['a', 'b'])}`);
  t.ok(stats.byRole.agent.entropy > 0 && stats.byRole.agent.entropy < Math.log(TINY.vocab) + 1, 'a plausible per-token entropy');
  t.same([stats.byRole.designer.tokens, stats.byRole.agent.tokens], [4, 4]);
  t.equal(stats.optimizerStep, 3, 'three epochs, three optimizer steps; the report is the first epoch\'s');

  const agentOnly = await trainer.update(trajectoryRows(traj('c', [9, 10], 1, 0), limits));
  t.ok(Number.isNaN(agentOnly.byRole.designer.entropy), 'no designer tokens: no designer entropy');
  t.equal(agentOnly.byRole.designer.tokens, 0);
});
