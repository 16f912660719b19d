// The forward half saves what the backward half reads, less what is cheaper to redo: no attention probabilities or
// scores (B x H x T² each, recomputed from the saved queries and keys), no transposed copies, so a long row's saved
// bytes grow with T, not T².
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { ModelSession } from '../../../model/session.js';

const config: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 256, vocab: 40, ffnHidden: 64 };

t.test('two-phase training recomputes attention rather than saving it', async (t) => {
  const s = await ModelSession.create(config, { graphs: ['split'], intraOpNumThreads: 1 });
  t.teardown(() => s.release());
  const w = initParameters(config, 1);
  const saved = async (B: number, T: number) => {
    const batch = { tokens: BigInt64Array.from({ length: B * T }, (_, i) => BigInt(i % 40)), batch: B, time: T, mask: new Float32Array(B * (T - 1)).fill(1) };
    return (await s.forward(batch, w)).saved;
  };
  const B = 2, T = 200;
  const long = await saved(B, T);
  const largest = Math.max(...Object.values(long.tensors).map((x) => x.size));
  // The one T x T tensor left is the causal bias (0 or -1e9), shared by every layer and row.
  t.ok(largest <= T * T, `the largest saved tensor (${largest} values) is at most the causal bias (${T * T}), not one layer's attention (${B * 4 * T * T})`);
  // Doubling T doubles the saved bytes (up to the T x T causal bias, saved once for all layers), where T² would quadruple them.
  const short = await saved(B, T / 2);
  t.ok(long.bytes < 2.5 * short.bytes, `T ${T / 2} -> ${T}: ${short.bytes} -> ${long.bytes} bytes`);
});
