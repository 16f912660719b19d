// A bad warm-start option throws WarmStartOptionsError naming the field; the defaults validate.
import t from 'tap';
import { DEFAULT_WARM_START_OPTIONS, isWarmStartOptionsError, validateWarmStartOptions, type WarmStartOptions } from '../../actors/warmstart/index.js';

t.same(validateWarmStartOptions(), DEFAULT_WARM_START_OPTIONS);
const cases: [WarmStartOptions, string][] = [
  [{ steps: 0 }, 'steps'], [{ lr: -1 }, 'lr'], [{ minLr: 1 }, 'minLr'], [{ agentFraction: 2 }, 'agentFraction'],
  [{ model: { width: 0 } }, 'model.width'], [{ planBy: 'sometimes' as 'steps' }, 'planBy'], [{ planBy: 'clock', minutes: 0 }, 'minutes'],
  [{ documents: 'web' as 'auto' }, 'documents'], [{ maxModuleTokens: -5 }, 'maxModuleTokens'], [{ outDir: '' }, 'outDir'],
];
for (const [opts, field] of cases) {
  t.test(field, async (t) => {
    const err = (() => { try { validateWarmStartOptions(opts); } catch (e) { return e; } return null; })();
    t.ok(isWarmStartOptionsError(err), 'typed error');
    t.equal((err as { field?: string }).field, field);
    t.match((err as Error).message, `options.${field}`);
  });
}
