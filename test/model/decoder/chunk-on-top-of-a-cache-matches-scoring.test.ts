// A chunk of several tokens on top of a KV cache (P > 0, S > 1) gives the scoring graph's log-probs.
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { concatKv } from '../../../model/sampler/kv-batch.js';
import { ModelSession } from '../../../model/session.js';

const config: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 32, vocab: 40, ffnHidden: 48 };

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
