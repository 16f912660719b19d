// AdamW follows the PyTorch AdamW update: five steps with weight decay, clipping and warmup match a plain float64
// re-statement of the algorithm.
import t from 'tap';
import { AdamW } from '../../../model/optimizer.js';

function reference(p0: number[][], grads: number[][][], o: { lr: (s: number) => number; b1: number; b2: number; eps: number; wd: number[]; clip: number }): number[][] {
  const p = p0.map((a) => [...a]);
  const m = p0.map((a) => a.map(() => 0));
  const v = p0.map((a) => a.map(() => 0));
  grads.forEach((gs, s) => {
    const norm = Math.sqrt(gs.flat().reduce((acc, x) => acc + x * x, 0));
    const scale = norm > o.clip ? o.clip / (norm + 1e-6) : 1;
    const lr = o.lr(s), t = s + 1;
    p.forEach((pk, k) =>
      pk.forEach((_, i) => {
        const g = gs[k]![i]! * scale;
        m[k]![i] = o.b1 * m[k]![i]! + (1 - o.b1) * g;
        v[k]![i] = o.b2 * v[k]![i]! + (1 - o.b2) * g * g;
        const mh = m[k]![i]! / (1 - o.b1 ** t), vh = v[k]![i]! / (1 - o.b2 ** t);
        pk[i] = pk[i]! * (1 - lr * o.wd[k]!) - (lr * mh) / (Math.sqrt(vh) + o.eps);
      }),
    );
  });
  return p;
}

t.test('five steps with decay, clipping and warmup match the float64 reference', async (t) => {
  const schedule = { peakLr: 0.05, warmupSteps: 2, decaySteps: 5, minLr: 0.01 };
  const opt = new AdamW({ beta1: 0.8, beta2: 0.9, eps: 1e-6, weightDecay: 0.2, maxGradNorm: 2, schedule });
  const p0 = [[0.5, -0.25, 1.5, 2], [1, 1]];
  const params = new Map([['layers.0.w', Float32Array.from(p0[0]!)], ['layers.0.ffn_norm.weight', Float32Array.from(p0[1]!)]]);
  const grads = [0, 1, 2, 3, 4].map((s) => [[0.5 - s, 1.5, -0.2 * s, 3], [0.1 * s, -1]]);
  for (const g of grads) opt.update(params, new Map([['layers.0.w', Float32Array.from(g[0]!)], ['layers.0.ffn_norm.weight', Float32Array.from(g[1]!)]]));
  const lrs = [0.025, 0.05, 0.05, 0.01 + 0.5 * 0.04 * (1 + Math.cos(Math.PI / 3)), 0.01 + 0.5 * 0.04 * (1 + Math.cos((2 * Math.PI) / 3))];
  const want = reference(p0, grads, { lr: (s) => lrs[s]!, b1: 0.8, b2: 0.9, eps: 1e-6, wd: [0.2, 0], clip: 2 });
  const got = [[...params.get('layers.0.w')!], [...params.get('layers.0.ffn_norm.weight')!]];
  const err = Math.max(...got.flat().map((x, i) => Math.abs(x - want.flat()[i]!)));
  t.ok(err < 2e-6, `max abs difference ${err}`);
  t.equal(opt.step, 5);
});
