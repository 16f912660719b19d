// The library covers the three families with at least 24 environments, at least 8 per family.
import t from 'tap';
import { FAMILIES, envs } from './library-envs.js';

t.test('the library has at least 24 environments, at least 8 per family', async (t) => {
  t.ok(envs.length >= 24, `${envs.length} environments`);
  for (const family of FAMILIES) t.ok(envs.filter((e) => e.family === family).length >= 8, family);
});
