// Typed errors of the learner: unusable trajectories, checkpoint/state problems.
// A bad LearnerOptions field is an OptionsError (runtime/options.ts) naming its path under `loop.learner`.
import { coded, guard, SpadeError } from '../../runtime/spade-error.js';

export class LearnerError extends SpadeError {}

/** A sample cannot be trained on (arrays of different lengths, longer than the context, ids outside the vocab). */
export class SampleShapeError extends LearnerError {
  constructor(readonly trajId: string, message: string) {
    super(`trajectory ${trajId}: ${message}`, { code: 'LEARNER_SAMPLE', data: { trajId } });
  }
}

/** An update was asked for with per-role token-mean denominators below its rows' own token counts (`data.role`). */
export class UpdateNormError extends coded(LearnerError, 'LEARNER_UPDATE_NORM') {}

/** The learner's saved state is missing pieces or does not match its model. */
export class LearnerStateError extends coded(LearnerError, 'LEARNER_STATE') {}

/**
 * An update left NaN or infinite weights (or optimizer moments): they are not published and not checkpointed, and the
 * learner stops rather than restart into the same divergence. `tensor`, `index` and `value` name the first bad element.
 */
export class LearnerDivergedError extends LearnerError {
  readonly tensor: string;
  readonly index: number;
  readonly value: number;
  /** `what`: e.g. "the weights of version 3 (not published)". */
  constructor(what: string, where: { tensor: string; index: number; value: number }, cause?: unknown) {
    super(`learner diverged: ${what} hold ${where.value} (tensor "${where.tensor}", element ${where.index}); the learner stops. Lower the learning rate (loop.learner.adamw.schedule) or resume from an earlier checkpoint`, {
      code: 'LEARNER_DIVERGED', data: { ...where, value: String(where.value) }, cause,
    });
    this.tensor = where.tensor;
    this.index = where.index;
    this.value = where.value;
  }
}

export const isLearnerError = guard(LearnerError);
export const isSampleShapeError = guard(SampleShapeError);
export const isLearnerStateError = guard(LearnerStateError);
export const isLearnerDivergedError = guard(LearnerDivergedError);
