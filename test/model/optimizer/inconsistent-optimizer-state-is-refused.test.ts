// Optimizer state whose moments disagree, or that does not fit the parameters, is refused with OptimizerError.
import t from 'tap';
import { isOptimizerError } from '../../../model/errors.js';
import { AdamW } from '../../../model/optimizer.js';
import { caught } from '../tokenizer/helpers.js';

const options = { schedule: { peakLr: 0.01, warmupSteps: 3, decaySteps: 8, minLr: 0.001 } };

t.test('inconsistent state is refused', async (t) => {
  const b = new AdamW(options);
  const e = caught(() => b.loadState({ step: 1, m: new Map([['w', new Float32Array(2)]]), v: new Map() }));
  t.ok(isOptimizerError(e), String(e));
  b.loadState({ step: 1, m: new Map([['w', new Float32Array(2)]]), v: new Map([['w', new Float32Array(2)]]) });
  const e2 = caught(() => b.update(new Map([['w', new Float32Array(3)]]), new Map([['w', new Float32Array(3)]])));
  t.ok(isOptimizerError(e2) && /2 elements, the parameter 3/.test(String(e2)), String(e2));
});
