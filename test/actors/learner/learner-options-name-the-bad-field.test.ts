// Learner options: defaults resolve, and a bad value fails naming its field under loop.learner.
import t from 'tap';
import { DEFAULT_LEARNER_OPTIONS, validateLearnerOptions } from '../../../actors/learner/index.js';
import { isOptionsError } from '../../../runtime/options.js';

t.test('defaults and field-naming errors', async (t) => {
  const o = validateLearnerOptions();
  t.equal(o.eta, DEFAULT_LEARNER_OPTIONS.eta);
  t.equal(o.objective, 'behaviour');
  for (const [bad, field] of [
    [{ eta: -1 }, 'eta'], [{ eta: 1.5 }, 'eta'], [{ clipEps: 0 }, 'clipEps'], [{ tisCap: 0.5 }, 'tisCap'], [{ objective: 'ppo' }, 'objective'],
    [{ minibatchTrajectories: 0 }, 'minibatchTrajectories'], [{ checkpointEvery: 0 }, 'checkpointEvery'], [{ skipZeroAdvantage: 'yes' }, 'skipZeroAdvantage'],
    [{ initCheckpoint: '' }, 'initCheckpoint'], [{ etaa: 1 }, 'etaa'],
    // A group prunes a round's keys only once its trajectories were acked at a checkpoint.
    [{ group: true, checkpointEvery: 10, groupKeepRounds: 10 }, 'groupKeepRounds'], [{ groupKeepRoundsMs: -1 }, 'groupKeepRoundsMs'],
  ] as const) {
    try {
      validateLearnerOptions(bad as never);
      t.fail(`accepted ${JSON.stringify(bad)}`);
    } catch (err) {
      t.ok(isOptionsError(err) && err.path === `loop.learner.${field}`, `${field}: typed error naming the path`);
      t.match((err as Error).message, new RegExp(`^loop\\.learner\\.${field}: (expected .+, got |unknown field)`), (err as Error).message);
    }
  }
});
