// The designer's running baseline is an exact average at first and an EMA later; the advantage is taken against
// the baseline before the reward, normalised by the running std with a floor and a clip.
import t from 'tap';
import { EMPTY_BASELINE, baselineStep } from '../../../actors/evaluator/designer-baseline.js';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';

t.test('designer baseline: exact average at first, EMA later, advantage against the baseline before the reward', async (t) => {
  const bo = validateEvaluatorOptions({ baselineAlpha: 0.5, normalizeDesigner: false });
  let s = EMPTY_BASELINE;
  const r1 = baselineStep(s, 'a', 1, bo);
  t.equal(r1.advantage, 0, 'no baseline yet');
  s = r1.next;
  t.equal(s.mean, 1);
  const r2 = baselineStep(s, 'b', 0, bo);
  t.equal(r2.advantage, -1);
  s = r2.next;
  t.equal(s.mean, 0.5);
  t.equal(s.variance, 0.25, 'population variance of {1, 0}');
  const r3 = baselineStep(s, 'c', 1, bo);
  t.equal(r3.advantage, 0.5);
  t.equal(r3.next.mean, 0.75, 'rate stays at alpha = 0.5 after 2 rewards');
  t.equal(baselineStep(r3.next, 'b', 5, bo).advantage, -1, 'a batch seen before gets its first advantage back');
  t.equal(baselineStep(r3.next, 'b', 5, bo).next, r3.next, 'and does not move the baseline');
  const norm = validateEvaluatorOptions({ baselineAlpha: 0.5 });
  t.equal(baselineStep(r2.next, 'c', 1, norm).advantage, 0.5 / 0.5, 'normalised by the running std (0.5)');
  let flat = EMPTY_BASELINE;
  for (const id of ['x1', 'x2', 'x3']) flat = baselineStep(flat, id, -1, norm).next;
  t.equal(baselineStep(flat, 'y', 1, norm).advantage, 5, 'after equal rewards the std floor (0.1) applies, then the clip at 5');
});
