// The held-out suite holds at least 30 environments, at least 10 in each family.
import t from 'tap';
import { HELDOUT_FAMILIES, heldOutFiles } from './heldout-suite.js';

const envs = heldOutFiles();

t.test('the suite has at least 30 environments, at least 10 per family', async (t) => {
  t.ok(envs.length >= 30, `${envs.length} environments`);
  for (const family of HELDOUT_FAMILIES) t.ok(envs.filter((e) => e.family === family).length >= 10, family);
});
