// Log-prob parity: prefill + token-by-token decode with the KV cache gives the same log-probs as the training
// graph, and the scoring graph gives them too (GQA, batch 2).
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { concatKv } from '../../../model/sampler/kv-batch.js';
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
