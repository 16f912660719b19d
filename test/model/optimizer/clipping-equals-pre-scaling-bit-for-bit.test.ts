// Clipping inside AdamW gives the same parameters as feeding it gradients pre-scaled by the reported clip scale.
import t from 'tap';
import { AdamW } from '../../../model/optimizer.js';

const schedule = { peakLr: 0.01, warmupSteps: 0, decaySteps: 10, minLr: 0.001 };

t.test('clipping equals pre-scaling, bit for bit', async (t) => {
  const grads = [Float32Array.of(3, -4), Float32Array.of(0.1, 0.2)];
  const a = new AdamW({ maxGradNorm: 0.5, schedule }), b = new AdamW({ maxGradNorm: 1e9, schedule });
  const pa = new Map([['w', Float32Array.of(1, 1)]]), pb = new Map([['w', Float32Array.of(1, 1)]]);
  for (const g of grads) {
    const r = a.update(pa, new Map([['w', g]]));
    b.update(pb, new Map([['w', g.map((x) => x * r.clipScale)]]));
  }
  const diff = Math.max(...[...pa.get('w')!].map((x, i) => Math.abs(x - pb.get('w')![i]!)));
  t.ok(diff < 1e-7, `difference ${diff}`);
});
