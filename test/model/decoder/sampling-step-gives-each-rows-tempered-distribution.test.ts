// A sampling step's probsLast is each row's distribution at its own temperature (softmax(logp_last / T)), on the
// prefill graph, the decode graph and the baked decode graph alike; a bad invTemp is a typed error naming it.
import t from 'tap';
import { concatKv } from '../../../model/sampler/kv-batch.js';
import { ModelSession } from '../../../model/session.js';
import { config, scaled } from './scaled-weights.js';

/** max |probs - softmax(logp · inv)| over the rows. */
function worstGap(logp: Float32Array | Float64Array, probs: Float32Array | Float64Array, inv: number[], V: number): number {
  let worst = 0;
  inv.forEach((k, b) => {
    const x = Array.from(logp.subarray(b * V, (b + 1) * V), (v) => v * k), max = Math.max(...x);
    const z = x.reduce((a, v) => a + Math.exp(v - max), 0);
    x.forEach((v, i) => (worst = Math.max(worst, Math.abs(Math.exp(v - max) / z - probs[b * V + i]!))));
  });
  return worst;
}

t.test('probs at each row temperature', async (t) => {
  const s = await ModelSession.create(config, { graphs: ['sample'] });
  t.teardown(() => s.release());
  const w = scaled(3), V = config.vocab, B = 3, S = 4;
  const inv = [1, 2, 1 / 1.5];
  const bias = new Float32Array(B * S * S);
  for (let b = 0; b < B; b++) for (let i = 0; i < S; i++) for (let j = 0; j < S; j++) bias[(b * S + i) * S + j] = j <= i ? 0 : -1e9;
  const prefill = { tokens: BigInt64Array.from({ length: B * S }, (_, i) => BigInt((i * 7 + 3) % V)), positions: BigInt64Array.from({ length: B * S }, (_, i) => BigInt(i % S)), bias, batch: B, steps: S, past: s.emptyCache(B) };
  const r = await s.step({ ...prefill, invTemp: Float32Array.from(inv) }, w);
  t.ok(worstGap(r.logpLast, r.probsLast, inv, V) < 1e-5, 'prefill');
  t.ok(worstGap(r.logpLast, (await s.step(prefill, w)).probsLast, [1, 1, 1], V) < 1e-5, 'absent invTemp: temperature 1');
  const step = { tokens: BigInt64Array.of(1n, 2n, 3n), positions: BigInt64Array.of(4n, 4n, 4n), bias: new Float32Array(B * (S + 1)), batch: B, steps: 1, past: concatKv(s.emptyCache(B), r.fresh), invTemp: Float32Array.from(inv) };
  const fed = await s.step(step, w);
  t.ok(worstGap(fed.logpLast, fed.probsLast, inv, V) < 1e-5, 'decode step');
  await s.bakeWeights(w);
  const baked = await s.step(step, w);
  t.ok(worstGap(baked.logpLast, baked.probsLast, inv, V) < 1e-5, 'baked decode step');
  for (const bad of [Float32Array.of(1, 0, 1), Float32Array.of(1, Number.NaN, 1), Float32Array.of(1, 1)]) {
    await t.rejects(s.step({ ...step, invTemp: bad }, w), { name: 'ModelOptionError', message: /invTemp/ }, `invTemp [${[...bad].join(', ')}]`);
  }
});
