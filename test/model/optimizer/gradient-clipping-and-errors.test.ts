// Global-norm clipping scales all gradients together; bad gradients and options fail with typed errors.
import t from 'tap';
import { isModelOptionError, isOptimizerError } from '../../../model/errors.js';
import { AdamW, validateAdamWOptions } from '../../../model/optimizer.js';
import { caught } from '../tokenizer/helpers.js';

const schedule = { peakLr: 0.01, warmupSteps: 0, decaySteps: 10, minLr: 0.001 };

t.test('a gradient of norm 10 is reported and scaled to norm 1', async (t) => {
  const g = (s: number): Map<string, Float32Array> => new Map([['a', Float32Array.of(6 * s, 0)], ['b', Float32Array.of(8 * s)]]);
  const p = (): Map<string, Float32Array> => new Map([['a', Float32Array.of(1, 2)], ['b', Float32Array.of(3)]]);
  const clipped = new AdamW({ maxGradNorm: 1, schedule });
  const raw = new AdamW({ maxGradNorm: Infinity, schedule });
  const pc = p(), pr = p();
  const r = clipped.update(pc, g(1));
  t.equal(r.gradNorm, 10, 'reports the norm before clipping');
  t.ok(Math.abs(r.clipScale - 1 / (10 + 1e-6)) < 1e-12, 'scale = max / norm');
  t.equal(raw.update(pr, g(1)).clipScale, 1, 'Infinity: never clipped');
  // Adam is scale-invariant on one step; the clipped history shows on the next, unclipped, step.
  t.equal(clipped.update(pc, g(0.05)).clipScale, 1, 'norm 0.5 is under the limit');
  raw.update(pr, g(0.05));
  t.notSame([...pc.get('a')!], [...pr.get('a')!], 'clipping changed the trajectory');
});

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

t.test('typed errors', async (t) => {
  const opt = new AdamW({ schedule });
  const p = new Map([['w', Float32Array.of(1, 2)]]);
  let e = caught(() => opt.update(p, new Map()));
  t.ok(isOptimizerError(e) && /no gradient for parameter "w"/.test(String(e)), String(e));
  e = caught(() => opt.update(p, new Map([['w', Float32Array.of(1)]])));
  t.ok(isOptimizerError(e) && /1 elements, the parameter 2/.test(String(e)), String(e));
  e = caught(() => opt.update(p, new Map([['w', Float32Array.of(NaN, 1)]])));
  t.ok(isOptimizerError(e) && /NaN/.test(String(e)), String(e));
  t.same([...p.get('w')!], [1, 2], 'failed updates leave the parameters alone');
  t.equal(opt.step, 0);
  for (const [bad, field] of [[{ beta1: 1 }, 'beta1'], [{ eps: 0 }, 'eps'], [{ maxGradNorm: 0 }, 'maxGradNorm'], [{ schedule: { minLr: 1, peakLr: 0.1 } }, 'minLr']] as const) {
    e = caught(() => validateAdamWOptions(bad));
    t.ok(isModelOptionError(e) && String(e).includes(`options.${field}`), String(e));
  }
});
