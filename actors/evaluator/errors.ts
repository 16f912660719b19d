// Typed errors of the evaluator: bad options, and a trajectory group it cannot score.
import { SpadeError } from '../../runtime/spade-error.js';

export class EvaluatorError extends SpadeError {}

/** An EvaluatorOptions field is invalid; `field` is its path under `loop.evaluator`. */
export class EvaluatorOptionsError extends EvaluatorError {
  constructor(readonly field: string, expected: string, value: unknown) {
    super(`loop.evaluator.${field} must be ${expected} (got ${JSON.stringify(value) ?? String(value)})`, { code: 'EVALUATOR_OPTIONS', data: { field } });
  }
}

/** Reading or writing the designer baseline in KV failed. */
export class BaselineStoreError extends EvaluatorError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'EVALUATOR_BASELINE', data, cause });
  }
}

export const isEvaluatorError = (e: unknown): e is EvaluatorError => e instanceof EvaluatorError;
export const isEvaluatorOptionsError = (e: unknown): e is EvaluatorOptionsError => e instanceof EvaluatorOptionsError;
export const isBaselineStoreError = (e: unknown): e is BaselineStoreError => e instanceof BaselineStoreError;
