// Missing, mis-sized or NaN gradients fail with OptimizerError and leave the parameters alone; bad AdamW options
// fail with ModelOptionError naming the field.
import t from 'tap';
import { isModelOptionError, isOptimizerError } from '../../../model/errors.js';
import { AdamW, validateAdamWOptions } from '../../../model/optimizer.js';
import { caught } from '../tokenizer/helpers.js';

const schedule = { peakLr: 0.01, warmupSteps: 0, decaySteps: 10, minLr: 0.001 };

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
