// Bad evaluator options throw an OptionsError whose message and path name the option and what was expected.
import t from 'tap';
import { validateEvaluatorOptions } from '../../../actors/evaluator/index.js';
import { isOptionsError } from '../../../runtime/options.js';

t.test('options name the bad field', async (t) => {
  t.throws(() => validateEvaluatorOptions({ tau: 2 }), /^loop\.evaluator\.tau: expected a finite number >= 0 and <= 1, got 2$/);
  t.throws(() => validateEvaluatorOptions({ agentEpisodes: 'hinted' as never }), /loop\.evaluator\.agentEpisodes: expected one of "no-hint", "all"/);
  t.throws(() => validateEvaluatorOptions({ taux: 1 } as never), /loop\.evaluator\.taux: unknown field/);
  const err = (() => { try { validateEvaluatorOptions({ baselineAlpha: 0 }); } catch (e) { return e; } return null; })();
  t.ok(isOptionsError(err), 'an OptionsError');
  t.equal((err as { path: string }).path, 'loop.evaluator.baselineAlpha');
});
