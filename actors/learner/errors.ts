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

export const isLearnerError = guard(LearnerError);
export const isSampleShapeError = guard(SampleShapeError);
export const isLearnerStateError = guard(LearnerStateError);
