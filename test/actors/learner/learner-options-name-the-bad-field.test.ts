// Learner options: defaults resolve, and a bad value fails naming its nested field under loop.learner.
import t from 'tap';
import { DEFAULT_LEARNER_OPTIONS, validateLearnerOptions } from '../../../actors/learner/options.js';
import { isOptionsError } from '../../../runtime/options.js';

t.test('defaults and field-naming errors', async (t) => {
  const o = validateLearnerOptions();
  t.equal(o.batching.eta, DEFAULT_LEARNER_OPTIONS.batching.eta);
  t.equal(o.objective.kind, 'behaviour');
  for (const [bad, field] of [
    [{ batching: { eta: -1 } }, 'batching.eta'], [{ batching: { eta: 1.5 } }, 'batching.eta'], [{ objective: { clipEps: 0 } }, 'objective.clipEps'],
    [{ objective: { tisCap: 0.5 } }, 'objective.tisCap'], [{ objective: { kind: 'ppo' } }, 'objective.kind'],
    [{ batching: { minibatchTrajectories: 0 } }, 'batching.minibatchTrajectories'], [{ batching: { microBatchTokens: 1 } }, 'batching.microBatchTokens'],
    [{ cadence: { checkpointEvery: 0 } }, 'cadence.checkpointEvery'], [{ batching: { skipZeroAdvantage: 'yes' } }, 'batching.skipZeroAdvantage'],
    [{ init: { checkpoint: '' } }, 'init.checkpoint'], [{ etaa: 1 }, 'etaa'], [{ batching: { etaa: 1 } }, 'batching.etaa'], [{ host: 4 }, 'host'],
    // A group prunes a round's keys only once its trajectories were acked at a checkpoint.
    [{ group: { enabled: true, keepRounds: 10 }, cadence: { checkpointEvery: 10 } }, 'group.keepRounds'], [{ group: { keepRoundsMs: -1 } }, 'group.keepRoundsMs'],
  ] as const) {
    try {
      validateLearnerOptions(bad as never);
      t.fail(`accepted ${JSON.stringify(bad)}`);
    } catch (err) {
      t.ok(isOptionsError(err) && err.path === `loop.learner.${field}`, `${field}: typed error naming the path`);
      t.match((err as Error).message, new RegExp(`^loop\\.learner\\.${field.replace('.', '\\.')}: (expected .+, got |unknown field)`), (err as Error).message);
    }
  }
});
