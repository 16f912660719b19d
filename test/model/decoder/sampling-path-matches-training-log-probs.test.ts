// Log-prob parity: prefill + token-by-token decode with the KV cache gives the same log-probs as the training graph.
import t from 'tap';
import { initParameters, type DecoderConfig } from '../../../model/decoder.js';
import { concatKv } from '../../../model/kv-batch.js';
import { ModelSession } from '../../../model/session.js';

const config: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 32, vocab: 40, ffnHidden: 48 };

t.test('prefill + decode reproduces training-graph log-probs (GQA, batch 2)', async (t) => {
  const B = 2, T = 14, prefill = 5;
  const weights = initParameters(config, 3);
  // Larger weights than the init make the check meaningful: attention is far from uniform.
  for (const [n, w] of weights) if (!n.includes('norm')) for (let i = 0; i < w.length; i++) w[i] = w[i]! * 15;
  const s = await ModelSession.create(config);
  const tokens = BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 7 + 3) % config.vocab));
  const ones = new Float32Array(B * (T - 1)).fill(1);
  const train = await s.train({ tokens, batch: B, time: T, mask: ones, dlogp: ones }, weights);
  const scored = await s.score({ tokens, batch: B, time: T, mask: ones }, weights);
  t.same([...scored.logp], [...train.logp], 'the forward-only scoring graph gives the training graph\'s log-probs');
  t.equal(scored.loss, train.loss);

  const row = (b: number, from: number, to: number): bigint[] => [...tokens.slice(b * T + from, b * T + to)];
  const bias = new Float32Array(B * prefill * prefill);
  for (let b = 0; b < B; b++) for (let i = 0; i < prefill; i++) for (let j = 0; j < prefill; j++) bias[(b * prefill + i) * prefill + j] = j <= i ? 0 : -1e9;
  let past = s.emptyCache(B);
  let r = await s.step({
    tokens: BigInt64Array.from([...row(0, 0, prefill), ...row(1, 0, prefill)]),
    positions: BigInt64Array.from({ length: B * prefill }, (_, i) => BigInt(i % prefill)),
    bias, batch: B, steps: prefill, past,
  }, weights);
  past = concatKv(past, r.fresh);
  let maxDiff = 0, compared = 0;
  for (let pos = prefill; pos < T; pos++) {
    for (let b = 0; b < B; b++) {
      const tok = Number(tokens[b * T + pos]);
      const viaCache = r.logpLast[b * config.vocab + tok]!;
      const viaTrain = train.logp[b * (T - 1) + pos - 1]!;
      maxDiff = Math.max(maxDiff, Math.abs(viaCache - viaTrain));
      compared++;
    }
    if (pos === T - 1) break;
    r = await s.step({
      tokens: BigInt64Array.from([tokens[pos]!, tokens[T + pos]!]),
      positions: BigInt64Array.from([BigInt(pos), BigInt(pos)]),
      bias: new Float32Array(B * (pos + 1)), batch: B, steps: 1, past,
    }, weights);
    past = concatKv(past, r.fresh);
  }
  t.equal(compared, B * (T - prefill));
  t.equal(past.k[0]!.dims.join(','), `${B},2,${T - 1},8`, 'cache grew one position per decode step');
  t.ok(maxDiff <= 1e-4, `max abs log-prob difference ${maxDiff.toExponential(2)} <= 1e-4`);
  console.log(`# parity max abs diff ${maxDiff.toExponential(3)} over ${compared} tokens; logp range ${Math.min(...train.logp).toFixed(2)}..${Math.max(...train.logp).toFixed(2)}`);
  await s.release();
});

t.test('bad feeds fail before onnxruntime with the field named', async (t) => {
  const s = await ModelSession.create(config);
  const w = initParameters(config, 1);
  const ones = new Float32Array(3).fill(1);
  const fieldOf = async (p: Promise<unknown>): Promise<string> => p.then(() => 'no error', (e: { name: string; field: string }) => `${e.name}:${e.field}`);
  t.equal(await fieldOf(s.train({ tokens: BigInt64Array.of(1n, 2n, 99n, 3n), batch: 1, time: 4, mask: ones, dlogp: ones }, w)), 'ModelOptionError:tokens');
  t.equal(await fieldOf(s.train({ tokens: BigInt64Array.of(1n, 2n, 3n, 4n), batch: 1, time: 4, mask: ones.subarray(1), dlogp: ones }, w)), 'ModelOptionError:mask');
  t.equal(await fieldOf(s.step({ tokens: BigInt64Array.of(1n), positions: BigInt64Array.of(32n), bias: new Float32Array(1), batch: 1, steps: 1, past: s.emptyCache(1) }, w)), 'ModelOptionError:positions');
  await s.release();
});

t.test('a chunk of several tokens on top of a cache (P > 0, S > 1) matches too', async (t) => {
  const s = await ModelSession.create(config, { graphs: ['score', 'sample'] });
  const w = initParameters(config, 8);
  for (const [n, a] of w) if (!n.includes('norm')) for (let i = 0; i < a.length; i++) a[i] = a[i]! * 15;
  const ids = [3, 14, 15, 9, 26, 5, 35, 8];
  const scored = await s.score({ tokens: BigInt64Array.from(ids, BigInt), batch: 1, time: ids.length, mask: new Float32Array(ids.length - 1).fill(1) }, w);
  const causal = (S: number, P: number): Float32Array => Float32Array.from({ length: S * (P + S) }, (_, k) => (k % (P + S) <= P + Math.floor(k / (P + S)) ? 0 : -1e9));
  const first = await s.step({ tokens: BigInt64Array.from(ids.slice(0, 3), BigInt), positions: BigInt64Array.of(0n, 1n, 2n), bias: causal(3, 0), batch: 1, steps: 3, past: s.emptyCache(1) }, w);
  const second = await s.step({ tokens: BigInt64Array.from(ids.slice(3, 7), BigInt), positions: BigInt64Array.of(3n, 4n, 5n, 6n), bias: causal(4, 3), batch: 1, steps: 4, past: concatKv(s.emptyCache(1), first.fresh) }, w);
  const diff = Math.abs(second.logpLast[ids[7]!]! - scored.logp[6]!);
  t.ok(diff <= 1e-4, `chunked prefill log-prob differs by ${diff.toExponential(2)}`);
  await s.release();
});
