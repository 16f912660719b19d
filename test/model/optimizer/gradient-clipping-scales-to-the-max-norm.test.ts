// Global-norm clipping scales all gradients together: a gradient of norm 10 is reported and scaled to norm 1,
// which changes the later trajectory.
import t from 'tap';
import { AdamW } from '../../../model/optimizer.js';

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
