// Options handed to the learner in code take the nested shape only: a flat key of before (`eta`, `objective: 'decoupled'`,
// `group: true`) fails naming the nested path it moved to (config files and --set still take them: runtime/config.ts).
import t from 'tap';
import { LEARNER_FLAT_KEYS } from '../../../actors/learner/flat-keys.js';
import { validateLearnerOptions } from '../../../actors/learner/options.js';
import { isOptionsError } from '../../../runtime/options.js';

t.test('a flat learner option in code fails naming its nested key', async (t) => {
  for (const [flat, value] of [['eta', 1], ['microBatchTokens', 2048], ['objective', 'decoupled'], ['group', true], ['stateDir', '/tmp/x'], ['roleWeights', { designer: 1, agent: 2 }]] as const) {
    const to = LEARNER_FLAT_KEYS[flat]!;
    try {
      validateLearnerOptions({ [flat]: value } as never);
      t.fail(`accepted ${flat}`);
    } catch (err) {
      t.ok(isOptionsError(err) && err.path === `loop.learner.${flat}`, `${flat}: typed error naming the old path`);
      t.equal((err as Error).message, `loop.learner.${flat}: moved: set loop.learner.${to}`);
    }
  }
  t.equal(Object.keys(LEARNER_FLAT_KEYS).length, 32, 'every flat key but model and adamw (which kept their place) is mapped');
});
