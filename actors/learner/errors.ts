// Typed errors of the learner: bad options, unusable trajectories, checkpoint/state problems.
import { SpadeError } from '../../runtime/spade-error.js';

export class LearnerError extends SpadeError {}

/** A LearnerOptions field is invalid; `field` is its path under `loop.learner`. */
export class LearnerOptionsError extends LearnerError {
  constructor(readonly field: string, expected: string, value: unknown) {
    super(`loop.learner.${field} must be ${expected} (got ${JSON.stringify(value) ?? String(value)})`, { code: 'LEARNER_OPTIONS', data: { field } });
  }
}

/** A sample cannot be trained on (arrays of different lengths, longer than the context, ids outside the vocab). */
export class SampleShapeError extends LearnerError {
  constructor(readonly trajId: string, message: string) {
    super(`trajectory ${trajId}: ${message}`, { code: 'LEARNER_SAMPLE', data: { trajId } });
  }
}

/** The learner's saved state is missing pieces or does not match its model. */
export class LearnerStateError extends LearnerError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'LEARNER_STATE', data, cause });
  }
}

export const isLearnerError = (e: unknown): e is LearnerError => e instanceof LearnerError;
export const isLearnerOptionsError = (e: unknown): e is LearnerOptionsError => e instanceof LearnerOptionsError;
export const isSampleShapeError = (e: unknown): e is SampleShapeError => e instanceof SampleShapeError;
export const isLearnerStateError = (e: unknown): e is LearnerStateError => e instanceof LearnerStateError;
