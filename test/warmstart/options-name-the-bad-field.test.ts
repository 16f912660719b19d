// A bad or unknown warm-start option throws OptionsError naming the field and what was expected; the defaults validate.
import t from 'tap';
import { DEFAULT_WARM_START_OPTIONS, validateWarmStartOptions, type WarmStartOptions } from '../../warmstart/index.js';
import { isOptionsError } from '../../runtime/options.js';

t.same(validateWarmStartOptions(), DEFAULT_WARM_START_OPTIONS);
const cases: [WarmStartOptions, string][] = [
  [{ steps: 0 }, 'steps'], [{ lr: -1 }, 'lr'], [{ minLr: 1 }, 'minLr'], [{ agentFraction: 2 }, 'agentFraction'],
  [{ model: { width: 0 } }, 'model.width'], [{ planBy: 'sometimes' as 'steps' }, 'planBy'], [{ planBy: 'clock', minutes: 0 }, 'minutes'],
  [{ documents: 'web' as 'auto' }, 'documents'], [{ maxModuleTokens: -5 }, 'maxModuleTokens'], [{ outDir: '' }, 'outDir'],
  [{ stepz: 3 } as WarmStartOptions, 'stepz'], [{ model: { depth: 2 } } as WarmStartOptions, 'model.depth'],
];
for (const [opts, field] of cases) {
  t.test(field, async (t) => {
    const err = (() => { try { validateWarmStartOptions(opts); } catch (e) { return e; } return null; })();
    t.ok(isOptionsError(err), 'typed error');
    t.equal((err as { path?: string }).path, `options.${field}`);
    t.ok((err as Error).message.startsWith(`options.${field}: `), (err as Error).message);
    t.match((err as Error).message, /: (expected .+, got .+|unknown field \(known: .+\))$/, 'says what was expected');
  });
}
