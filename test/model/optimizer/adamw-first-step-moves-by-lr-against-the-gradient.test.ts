// AdamW follows the PyTorch AdamW update: on the first step each weight moves by lr in the direction of -sign(g).
import t from 'tap';
import { AdamW } from '../../../model/optimizer.js';

t.test('first step moves each weight by lr in the direction of -sign(g)', async (t) => {
  // m̂ = g and v̂ = g² on step 1, so the update is lr * g / (|g| + eps) ≈ lr * sign(g).
  const opt = new AdamW({ weightDecay: 0, schedule: { peakLr: 0.01, warmupSteps: 0, decaySteps: 10, minLr: 0.01 } });
  const params = new Map([['w', Float32Array.of(1, -2, 0.5)]]);
  const r = opt.update(params, new Map([['w', Float32Array.of(0.3, -4, 0)]]));
  t.equal(r.step, 1);
  t.equal(r.lr, 0.01);
  const w = params.get('w')!;
  t.ok(Math.abs(w[0]! - 0.99) < 1e-6, `w0 ${w[0]}`);
  t.ok(Math.abs(w[1]! - -1.99) < 1e-6, `w1 ${w[1]}`);
  t.equal(w[2], 0.5, 'zero gradient: no move');
});
