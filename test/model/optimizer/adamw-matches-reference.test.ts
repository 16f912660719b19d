// AdamW follows the PyTorch AdamW update: checked against the closed form of the first step and a
// plain float64 re-statement of the algorithm over several steps with decay, clipping and schedule.
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

t.test('weight decay skips norms and biases by default and follows a custom predicate', async (t) => {
  const zero = (n: number): Float32Array => new Float32Array(n);
  const sched = { peakLr: 0.1, warmupSteps: 0, decaySteps: 1, minLr: 0.1 };
  const opt = new AdamW({ weightDecay: 0.5, schedule: sched });
  const p = new Map([['w', Float32Array.of(2)], ['norm.weight', Float32Array.of(2)], ['head.bias', Float32Array.of(2)]]);
  opt.update(p, new Map([['w', zero(1)], ['norm.weight', zero(1)], ['head.bias', zero(1)]]));
  t.ok(Math.abs(p.get('w')![0]! - 2 * (1 - 0.1 * 0.5)) < 1e-7, 'w shrinks by lr * wd');
  t.equal(p.get('norm.weight')![0], 2, 'norm untouched');
  t.equal(p.get('head.bias')![0], 2, 'bias untouched');
  const custom = new AdamW({ weightDecay: 0.5, schedule: sched, decay: (n) => n === 'norm.weight' });
  const q = new Map([['w', Float32Array.of(2)], ['norm.weight', Float32Array.of(2)]]);
  custom.update(q, new Map([['w', zero(1)], ['norm.weight', zero(1)]]));
  t.equal(q.get('w')![0], 2);
  t.ok(Math.abs(q.get('norm.weight')![0]! - 1.9) < 1e-6);
});
