// The SIMD AdamW keeps to the plain float64 loop it replaced: ten steps with clipping, weight decay and a schedule,
// over parameters longer than a kernel chunk and of lengths that are not a multiple of four, end within 1e-6.
import t from 'tap';
import { adamwLoopUpdate } from '../../../model/adamw-reference.js';
import { AdamW } from '../../../model/optimizer.js';

function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32) - 0.5;
}

t.test('ten SIMD AdamW steps match the float64 loop to 1e-6', async (t) => {
  const r = rng(7);
  const sizes = { 'embed.weight': 20_003, 'layers.0.attn.q.weight': 8192 * 3 + 5, 'layers.0.attn_norm.weight': 7, 'out.bias': 1 };
  const params = new Map(Object.entries(sizes).map(([n, len]) => [n, Float32Array.from({ length: len }, () => r() * 0.2)]));
  const ref = new Map([...params].map(([n, a]) => [n, a.slice()]));
  const m = new Map([...params].map(([n, a]) => [n, new Float32Array(a.length)]));
  const v = new Map([...params].map(([n, a]) => [n, new Float32Array(a.length)]));
  const schedule = { peakLr: 3e-3, warmupSteps: 3, decaySteps: 10, minLr: 3e-4 };
  const opt = new AdamW({ weightDecay: 0.1, maxGradNorm: 5, schedule });
  const { beta1: b1, beta2: b2, eps } = opt.options;
  let clipped = 0;
  for (let s = 0; s < 10; s++) {
    const scale = s % 3 === 0 ? 0.5 : 0.01; // some steps clipped, some not
    const grads = new Map([...params].map(([n, a]) => [n, Float32Array.from({ length: a.length }, () => r() * scale)]));
    const res = opt.update(params, grads);
    if (res.clipScale < 1) clipped++;
    const step = s + 1, stepSize = res.lr / (1 - b1 ** step), bc2Sqrt = Math.sqrt(1 - b2 ** step);
    for (const [n, p] of ref) {
      const shrink = /norm|bias/.test(n) ? 1 : 1 - res.lr * 0.1;
      adamwLoopUpdate(p, grads.get(n)!, m.get(n)!, v.get(n)!, { clipScale: res.clipScale, beta1: b1, beta2: b2, shrink, stepSize, bc2Sqrt, eps });
    }
  }
  t.ok(clipped > 0 && clipped < 10, `clipped on ${clipped} of 10 steps`);
  let diff = 0;
  for (const [n, p] of params) {
    const q = ref.get(n)!;
    for (let i = 0; i < p.length; i++) diff = Math.max(diff, Math.abs(p[i]! - q[i]!));
  }
  const state = opt.exportState();
  let mDiff = 0;
  for (const [n, a] of state.m) for (let i = 0; i < a.length; i++) mDiff = Math.max(mDiff, Math.abs(a[i]! - m.get(n)![i]!));
  t.ok(diff <= 1e-6, `parameters: max abs difference ${diff}`);
  t.ok(mDiff <= 1e-6, `first moments: max abs difference ${mDiff}`);
});
