// Bad evaluator options throw an EvaluatorOptionsError whose message and field name the option.
import t from 'tap';
import { validateEvaluatorOptions, isEvaluatorOptionsError } from '../../../actors/evaluator/index.js';

t.test('options name the bad field', async (t) => {
  t.throws(() => validateEvaluatorOptions({ tau: 2 }), /loop\.evaluator\.tau must be a number in \[0, 1\]/);
  t.throws(() => validateEvaluatorOptions({ agentEpisodes: 'hinted' as never }), /loop\.evaluator\.agentEpisodes/);
  try {
    validateEvaluatorOptions({ baselineAlpha: 0 });
  } catch (err) {
    t.ok(isEvaluatorOptionsError(err));
    t.equal((err as { field: string }).field, 'baselineAlpha');
  }
});
