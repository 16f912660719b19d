// The loss is a token mean per role mixed by role weights, so the ~1,000 tokens of a designer sample no longer
// swamp an agent's few: a token of role r weighs w_r / (W · N_r). By hand: the loss of an on-policy update and the
// gradient of a mixed minibatch = Σ_r (w_r / W) × the gradient of role r's rows alone
// (each alone is its plain token mean); a denominator N_r larger than the rows' tokens (zero-advantage trajectories
// the learner skipped) scales that role down by tokens/N_r; a denominator below them is an UpdateNormError.
import t from 'tap';
import { AdamW, ModelSession, initParameters, packBatch } from '../../../model/index.js';
import { PolicyTrainer, trajectoryRows, type Row } from '../../../actors/learner/index.js';
import { isLearnerError } from '../../../actors/learner/errors.js';
import { TINY, traj } from './tiny.js';

const limits = { contextLength: 32, vocab: 272 };

t.test('mixed minibatch = weighted sum of the roles alone', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
  t.teardown(() => session.release());
  const weights = initParameters(TINY, 11);
  const trainer = (roleWeights?: { designer: number; agent: number }) =>
    new PolicyTrainer(session, weights, new AdamW({ schedule: { peakLr: 1e-3, warmupSteps: 0, decaySteps: 10, minLr: 1e-3 } }), {
      kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096, ...(roleWeights ? { roleWeights } : {}),
    });
  const onPolicy = async (rows: Row[]): Promise<Row[]> => Promise.all(rows.map(async (r) => {
    const { logp } = await session.score(packBatch([{ tokens: r.tokens }]), weights);
    return { ...r, behaviour: Float32Array.from(r.positions, (p) => logp[p - 1]!) };
  }));
  const designer = await onPolicy(trajectoryRows({ ...traj('d', [50, 51, 52, 53, 54, 55, 56, 57], 1, 0), role: 'designer' }, limits));
  const agent = await onPolicy(trajectoryRows(traj('a', [60, 61], -1, 0), limits));
  t.equal(designer[0]!.role, 'designer');
  t.equal(agent[0]!.role, 'agent');

  const mixed = await trainer().gradients([...designer, ...agent]);
  // On-policy (r = 1), J = A per token: −(½ · mean_d A + ½ · mean_a A) = −(½ · 1 + ½ · −1) = 0; the old token mean gave −(8 − 2)/10.
  t.ok(Math.abs(mixed.stats.loss) < 1e-6, `loss ${mixed.stats.loss} = 0`);
  t.ok(Math.abs(mixed.stats.byRole.designer.loss - -1) < 1e-6 && Math.abs(mixed.stats.byRole.agent.loss - 1) < 1e-6, 'per-role losses −1 and 1');
  t.same([mixed.stats.byRole.designer.tokens, mixed.stats.byRole.agent.tokens], [8, 2]);

  const gd = (await trainer().gradients(designer)).grads, ga = (await trainer().gradients(agent)).grads;
  const check = (got: Map<string, Float32Array>, want: (k: string, i: number) => number, what: string): void => {
    let maxDiff = 0, maxAbs = 0;
    for (const [k, g] of got) for (let i = 0; i < g.length; i++) (maxDiff = Math.max(maxDiff, Math.abs(g[i]! - want(k, i)))), (maxAbs = Math.max(maxAbs, Math.abs(g[i]!)));
    t.ok(maxAbs > 1e-5, `${what}: gradients are not trivially zero (max |g| ${maxAbs.toExponential(2)})`);
    t.ok(maxDiff <= 1e-6 + 1e-4 * maxAbs, `${what}: max diff ${maxDiff.toExponential(2)}`);
  };
  check(mixed.grads, (k, i) => 0.5 * gd.get(k)![i]! + 0.5 * ga.get(k)![i]!, 'equal weights');
  const w13 = await trainer({ designer: 1, agent: 3 }).gradients([...designer, ...agent]);
  check(w13.grads, (k, i) => 0.25 * gd.get(k)![i]! + 0.75 * ga.get(k)![i]!, 'weights 1 : 3');
  // The learner's norm: the agent's 2 trained tokens plus 6 of skipped zero-advantage trajectories.
  const diluted = await trainer().gradients([...designer, ...agent], undefined, { designer: 8, agent: 8 });
  check(diluted.grads, (k, i) => 0.5 * gd.get(k)![i]! + 0.5 * (2 / 8) * ga.get(k)![i]!, 'a larger agent denominator');
  t.equal(diluted.stats.byRole.agent.norm, 8);

  const err = await trainer().gradients(agent, undefined, { designer: 0, agent: 1 }).then(() => null, (e: unknown) => e);
  t.ok(isLearnerError(err), 'a denominator below the rows\' tokens is a learner error');
  t.equal((err as { code?: string }).code, 'LEARNER_UPDATE_NORM');
  t.match((err as Error).message, /norm\.agent must be at least the rows' 2 agent tokens, got 1/);
});
