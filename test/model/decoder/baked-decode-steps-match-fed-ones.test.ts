// Decode steps on a graph with the weights baked in give the log-probs and keys/values of the graph that takes them
// as feeds; other weights keep the feed path, and a newer version supersedes an older one.
import t from 'tap';
import { concatKv } from '../../../model/sampler/kv-batch.js';
import { ModelSession } from '../../../model/session.js';
import { config, scaled } from './scaled-weights.js';

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

t.test('baked decode steps match fed ones; other weights still run fed', async (t) => {
  const s = await ModelSession.create(config, { graphs: ['sample'] });
  const fed = scaled(3);
  const baked = new Map(fed); // same arrays, another Map: only this one is baked
  const other = scaled(4);
  await s.bakeWeights(scaled(5)); // an older version, superseded below
  await s.bakeWeights(baked);
  const B = 2, S = 4;
  const bias = new Float32Array(B * S * S);
  for (let b = 0; b < B; b++) for (let i = 0; i < S; i++) for (let j = 0; j < S; j++) bias[(b * S + i) * S + j] = j <= i ? 0 : -1e9;
  const prefill = { tokens: BigInt64Array.from({ length: B * S }, (_, i) => BigInt((i * 7 + 3) % 40)), positions: BigInt64Array.from({ length: B * S }, (_, i) => BigInt(i % S)), bias, batch: B, steps: S };
  const r = await s.step({ ...prefill, past: s.emptyCache(B) }, fed);
  let past = concatKv(s.emptyCache(B), r.fresh);
  let worst = 0, worstKv = 0;
  for (let pos = S; pos < S + 6; pos++) {
    const step = { tokens: BigInt64Array.from([BigInt(pos % 40), BigInt((pos * 3) % 40)]), positions: BigInt64Array.from([BigInt(pos), BigInt(pos)]), bias: new Float32Array(B * (pos + 1)), batch: B, steps: 1, past };
    const a = await s.step(step, fed);
    const b = await s.step(step, baked);
    worst = Math.max(worst, maxDiff(a.logpLast, b.logpLast));
    for (let l = 0; l < config.layers; l++) worstKv = Math.max(worstKv, maxDiff(a.fresh.k[l]!.data as Float32Array, b.fresh.k[l]!.data as Float32Array), maxDiff(a.fresh.v[l]!.data as Float32Array, b.fresh.v[l]!.data as Float32Array));
    const c = await s.step(step, other);
    t.ok(maxDiff(a.logpLast, c.logpLast) > 1e-3, `position ${pos}: other weights give other log-probs`);
    past = concatKv(past, a.fresh);
  }
  // The baked graph holds its own copy: an in-place change (which callers must not make) shows which path ran.
  const step = { tokens: BigInt64Array.of(1n, 2n), positions: BigInt64Array.of(10n, 10n), bias: new Float32Array(B * 11), batch: B, steps: 1, past };
  const before = await s.step(step, baked);
  for (const a of fed.values()) a.reverse();
  t.ok(maxDiff(before.logpLast, (await s.step(step, fed)).logpLast) > 1e-3, 'the fed path sees the changed arrays');
  t.equal(maxDiff(before.logpLast, (await s.step(step, baked)).logpLast), 0, 'the baked path still runs the weights it was built with');
  t.ok(worst <= 1e-5, `baked vs fed log-probs max abs diff ${worst.toExponential(2)} <= 1e-5`);
  t.ok(worstKv <= 1e-5, `baked vs fed keys/values max abs diff ${worstKv.toExponential(2)} <= 1e-5`);
  await s.release();
});
