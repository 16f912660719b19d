// Typed errors of held-out evaluation: bad options or arguments, an unreadable suite, a checkpoint that cannot be played.
import { SpadeError, fieldError, guard, located } from '../runtime/spade-error.js';

export class EvalError extends SpadeError {}

/** An EvalOptions field or a `spade eval` argument is invalid; `field` names it (e.g. `seeds`, `--hint`). */
export class EvalOptionsError extends fieldError(EvalError, 'EVAL_OPTIONS') {}

/** The suite directory is missing, unreadable or holds no environment module. */
export class SuiteError extends located(EvalError, 'EVAL_SUITE', 'dir') {}

/** A checkpoint could not be loaded or failed while playing (not an environment's fault). */
export class EvalCheckpointError extends located(EvalError, 'EVAL_CHECKPOINT', 'checkpoint') {}

/** The area's `isX(err)` helpers. */
export const isEvalError = guard(EvalError), isEvalOptionsError = guard(EvalOptionsError), isSuiteError = guard(SuiteError), isEvalCheckpointError = guard(EvalCheckpointError);
