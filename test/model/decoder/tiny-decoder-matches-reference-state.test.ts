// Reference state: the seeded tiny decoder's log-probs, loss and per-parameter gradient norms (float32 engine)
// against a committed fixture computed by an independent numpy float64 implementation (test/fixtures/model).
import { readFileSync } from 'node:fs';
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { ModelSession } from '../../../model/session.js';
import { repoPath } from '../../../runtime/paths.js';
import { REFERENCE, referenceWeights } from '../../fixtures/model/reference-case.js';

interface Fixture {
  weightSums: Record<string, number>;
  logp: number[];
  loss: number;
  gradNorms: Record<string, number>;
}

t.test('loss, log-probs and gradient norms match the numpy reference', async (t) => {
  const ref = JSON.parse(readFileSync(repoPath('test/fixtures/model/decoder-reference.json'), 'utf8')) as Fixture;
  const weights = referenceWeights(initParameters(REFERENCE.config, REFERENCE.seed));
  for (const [n, w] of weights) {
    const sum = w.reduce((s, x) => s + x, 0);
    t.ok(Math.abs(sum - ref.weightSums[n]!) < 1e-4 * Math.max(1, Math.abs(ref.weightSums[n]!)), `seeded init of ${n} unchanged`);
  }
  const { batch: B, time: T } = REFERENCE;
  const mask = Float32Array.from(REFERENCE.mask);
  const count = mask.reduce((s, x) => s + x, 0);
  const s = await ModelSession.create(REFERENCE.config, { graphs: ['train'] });
  // dlogp = d(masked mean NLL)/d logp, so the gradients are those of the fixture's loss.
  const r = await s.train({ tokens: BigInt64Array.from(REFERENCE.tokens.map(BigInt)), batch: B, time: T, mask, dlogp: new Float32Array(B * (T - 1)).fill(-1 / count) }, weights);
  const logpDiff = Math.max(...ref.logp.map((v, i) => Math.abs(v - r.logp[i]!)));
  t.ok(logpDiff < 1e-4, `log-probs within 1e-4 (max diff ${logpDiff.toExponential(2)})`);
  t.ok(Math.abs(r.loss - ref.loss) < 1e-5, `loss ${r.loss} vs ${ref.loss}`);
  let worstRel = 0;
  for (const [n, g] of r.grads) {
    let sq = 0;
    for (const x of g) sq += x * x;
    const norm = Math.sqrt(sq);
    worstRel = Math.max(worstRel, Math.abs(norm - ref.gradNorms[n]!) / ref.gradNorms[n]!);
  }
  t.ok(worstRel < 1e-3, `gradient norms within 0.1% (worst ${(worstRel * 100).toFixed(4)}%)`);
  console.log(`# reference: loss ${r.loss.toFixed(6)} (numpy ${ref.loss.toFixed(6)}), logp max diff ${logpDiff.toExponential(2)}, grad-norm worst rel ${worstRel.toExponential(2)}`);
  await s.release();
});
