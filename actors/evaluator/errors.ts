// Typed errors of the evaluator: a trajectory group it cannot score, a baseline it cannot keep.
// A bad EvaluatorOptions field is an OptionsError (runtime/options.ts) naming its path under `loop.evaluator`.
import { coded, guard, SpadeError } from '../../runtime/spade-error.js';

export class EvaluatorError extends SpadeError {}

/** Reading or writing the designer baseline in KV failed. */
export class BaselineStoreError extends coded(EvaluatorError, 'EVALUATOR_BASELINE') {}

export const isEvaluatorError = guard(EvaluatorError);
export const isBaselineStoreError = guard(BaselineStoreError);
