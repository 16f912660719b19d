// Learner options: defaults resolve, and a bad value fails naming its field under loop.learner.
import t from 'tap';
import { DEFAULT_LEARNER_OPTIONS, isLearnerOptionsError, validateLearnerOptions } from '../../../actors/learner/index.js';

t.test('defaults and field-naming errors', async (t) => {
  const o = validateLearnerOptions();
  t.equal(o.eta, DEFAULT_LEARNER_OPTIONS.eta);
  t.equal(o.objective, 'behaviour');
  for (const [bad, field] of [
    [{ eta: -1 }, 'eta'], [{ eta: 1.5 }, 'eta'], [{ clipEps: 0 }, 'clipEps'], [{ tisCap: 0.5 }, 'tisCap'], [{ objective: 'ppo' }, 'objective'],
    [{ minibatchTrajectories: 0 }, 'minibatchTrajectories'], [{ checkpointEvery: 0 }, 'checkpointEvery'], [{ skipZeroAdvantage: 'yes' }, 'skipZeroAdvantage'],
    [{ initCheckpoint: '' }, 'initCheckpoint'],
  ] as const) {
    try {
      validateLearnerOptions(bad as never);
      t.fail(`accepted ${JSON.stringify(bad)}`);
    } catch (err) {
      t.ok(isLearnerOptionsError(err), `${field}: typed error`);
      t.match((err as Error).message, new RegExp(`^loop\\.learner\\.${field} must be`), (err as Error).message);
    }
  }
});
