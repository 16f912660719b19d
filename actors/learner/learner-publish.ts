// Publishing one policy version from the learner: the weights through weight sync, and in a learner group the
// optimizer state a joining member starts from. Transport failures are retried a few times (a NATS hiccup must not
// cost the update); non-finite weights are the learner's divergence, not a transport problem.
import { isNonFiniteWeightsError, isWeightTransportError, type WeightPublisher } from '../../weight-sync/index.js';
import type { Connection } from '../../runtime/connection.js';
import { LearnerDivergedError } from './errors.js';
import { publishGroupState } from './group/state.js';
import { GroupTrainer } from './group/trainer.js';
import type { TrainerHandle } from './trainer-thread.js';

export async function publishVersion(conn: Connection, publisher: WeightPublisher, trainer: TrainerHandle, version: number, log: (line: string) => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await publisher.publish(await trainer.weights(), { version, step: trainer.step });
      if (trainer instanceof GroupTrainer) await publishGroupState(conn, version, trainer.round, (await trainer.state()).optimizer);
      return;
    } catch (err) {
      // The publisher refuses NaN/Inf before uploading anything: say that the learner diverged.
      if (isNonFiniteWeightsError(err)) throw new LearnerDivergedError(`the weights of version ${version} (not published)`, { tensor: err.tensor ?? '?', index: err.index, value: err.value }, err);
      if (!isWeightTransportError(err) || attempt >= 5) throw err;
      log(`learner: publishing version ${version} failed (attempt ${attempt}), retrying: ${err.message}`);
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}
