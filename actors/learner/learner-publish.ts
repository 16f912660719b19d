// Publishing one policy version from the learner: the weights through weight sync, then what the reducer publishes
// beside them (a learner group's optimizer state, which a joining member starts from). Transport failures are retried
// a few times (a NATS hiccup must not cost the update); non-finite weights are the learner's divergence, not a
// transport problem.
import { retry } from '../../runtime/retry.js';
import { isNonFiniteWeightsError, isWeightTransportError, type WeightPublisher } from '../../weight-sync/index.js';
import { LearnerDivergedError } from './errors.js';
import type { GradientReducer } from './reducer.js';
import type { TrainerHandle } from './trainer-thread.js';

export async function publishVersion(publisher: WeightPublisher, trainer: TrainerHandle, reducer: Pick<GradientReducer, 'published'>, version: number, log: (line: string) => void): Promise<void> {
  try {
    await retry(`learner: publishing version ${version}`, async () => {
      await publisher.publish(await trainer.weights(), { version, step: trainer.step });
      await reducer.published(version);
    }, {
      attempts: 5,
      backoffMs: 500,
      retryable: isWeightTransportError,
      onRetry: (err, attempt) => log(`learner: publishing version ${version} failed (attempt ${attempt}), retrying: ${err.message}`),
    });
  } catch (err) {
    // The publisher refuses NaN/Inf before uploading anything: say that the learner diverged.
    if (isNonFiniteWeightsError(err)) throw new LearnerDivergedError(`the weights of version ${version} (not published)`, { tensor: err.tensor ?? '?', index: err.index, value: err.value }, err);
    throw err;
  }
}
