// Sequences of different lengths packed into one right-padded batch give the same log-probs and gradients as
// each sequence alone (padding is masked and causally invisible).
import t from 'tap';
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { ModelSession } from '../../../model/session.js';
import { packBatch, unpackLogp, type PackRow } from '../../../model/train-batch.js';

const config: DecoderConfig = { layers: 1, width: 16, heads: 2, contextLength: 16, vocab: 20, ffnHidden: 24 };

t.test('packed batch = sum of single-sequence runs', async (t) => {
  const s = await ModelSession.create(config, { graphs: ['train'] });
  const w = initParameters(config, 2);
  for (const [n, a] of w) if (!n.includes('norm')) for (let i = 0; i < a.length; i++) a[i] = a[i]! * 10;
  const rows: PackRow[] = [
    { tokens: [1, 2, 3, 4, 5, 6, 7], mask: [0, 0, 1, 1, 1, 1], dlogp: [0, 0, 0.5, -1, 0.25, 1] },
    { tokens: [9, 8, 7], dlogp: [1, -0.5] },
    { tokens: [3, 3, 3, 3, 19], mask: [1, 0, 1, 0], dlogp: [2, 2, 2, 2] },
  ];
  const packed = packBatch(rows, { padId: 0 });
  const together = await s.train(packed, w);
  const split = unpackLogp(together.logp, packed);
  const summed = new Map([...w].map(([n, a]) => [n, new Float64Array(a.length)]));
  let maxLogp = 0;
  for (const [i, row] of rows.entries()) {
    const alone = packBatch([row]);
    const r = await s.train(alone, w);
    split[i]!.forEach((v, j) => (maxLogp = Math.max(maxLogp, Math.abs(v - r.logp[j]!))));
    for (const [n, g] of r.grads) { const acc = summed.get(n)!; for (let k = 0; k < g.length; k++) acc[k] += g[k]!; }
  }
  let maxGrad = 0;
  for (const [n, g] of together.grads) { const acc = summed.get(n)!; for (let k = 0; k < g.length; k++) maxGrad = Math.max(maxGrad, Math.abs(g[k]! - acc[k]!)); }
  t.same(split.map((r) => r.length), [6, 2, 4]);
  t.ok(maxLogp < 1e-5, `log-probs equal (max diff ${maxLogp.toExponential(2)})`);
  t.ok(maxGrad < 1e-4, `gradients add up (max diff ${maxGrad.toExponential(2)})`);
  t.throws(() => packBatch([{ tokens: [1, 2], mask: [1, 1] }]), { name: 'ModelOptionError' });
  await s.release();
});
