// Typed errors of held-out evaluation: bad options or arguments, an unreadable suite, a checkpoint that cannot be played.
import { SpadeError } from '../runtime/spade-error.js';

export class EvalError extends SpadeError {}

/** An EvalOptions field or a `spade eval` argument is invalid; `field` names it (e.g. `seeds`, `--hint`). */
export class EvalOptionsError extends EvalError {
  constructor(readonly field: string, expected: string, value: unknown) {
    super(`${field} must be ${expected} (got ${JSON.stringify(value) ?? String(value)})`, { code: 'EVAL_OPTIONS', data: { field } });
  }
}

/** The suite directory is missing, unreadable or holds no environment module. */
export class SuiteError extends EvalError {
  constructor(message: string, readonly dir: string, cause?: unknown) {
    super(message, { code: 'EVAL_SUITE', data: { dir }, cause });
  }
}

/** A checkpoint could not be loaded or failed while playing (not an environment's fault). */
export class EvalCheckpointError extends EvalError {
  constructor(message: string, readonly checkpoint: string, cause?: unknown) {
    super(message, { code: 'EVAL_CHECKPOINT', data: { checkpoint }, cause });
  }
}

export const isEvalError = (e: unknown): e is EvalError => e instanceof EvalError;
export const isEvalOptionsError = (e: unknown): e is EvalOptionsError => e instanceof EvalOptionsError;
export const isSuiteError = (e: unknown): e is SuiteError => e instanceof SuiteError;
export const isEvalCheckpointError = (e: unknown): e is EvalCheckpointError => e instanceof EvalCheckpointError;
