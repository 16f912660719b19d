// loop.modules narrows the library to the named modules, for the fixed pool and the designer's parents alike; a name
// the library lacks fails at once, naming its index, instead of quietly training on fewer modules.
import t from 'tap';
import { loadLibraryEnvs, onlyModules } from '../../../actors/designer/library-envs.js';
import { validateLoopOptions } from '../../../actors/loop/options.js';
import { OptionsError } from '../../../runtime/options.js';

const FIVE = ['door-code', 'max-pick', 'ticket-close', 'step-to-mark', 'window-search'];

t.test('loop.modules keeps the named library modules and refuses unknown names', async (t) => {
  const library = loadLibraryEnvs();
  t.equal(onlyModules(library, []).length, library.length, 'empty: every module');
  const five = onlyModules(library, validateLoopOptions({ modules: FIVE }).modules);
  t.same(five.map((e) => e.name).sort(), [...FIVE].sort(), 'exactly the named modules');
  t.same(five.map((e) => e.family), ['games', 'games', 'reasoning', 'reasoning', 'tools'], 'in library order, with their families');
  const err = t.throws(() => onlyModules(library, ['door-code', 'window-serch'])) as OptionsError;
  t.ok(err instanceof OptionsError);
  t.match(err.message, /loop\.modules\[1\]/, 'the error names the entry');
  t.match(err.message, /window-serch/, 'and the value');
  t.throws(() => validateLoopOptions({ modules: [''] as string[] }), /loop\.modules/, 'an empty name is refused by the schema');
});
