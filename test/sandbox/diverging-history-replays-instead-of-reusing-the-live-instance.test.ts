// A step request whose history diverges from the live instance's is replayed from the seed instead of stepping
// the live instance.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';
import { VALID_CODE } from './helpers.js';

const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
t.teardown(() => pool.close());

t.test('a diverging history replays instead of reusing the live instance', async (t) => {
  const r0 = await pool.reset({ code: VALID_CODE, seed: 5, episodeId: 'div' });
  await pool.step({ codeHash: r0.codeHash, seed: 5, actions: ['3'], episodeId: 'div' });
  const other = await pool.step({ codeHash: r0.codeHash, seed: 5, actions: ['4', '4'], episodeId: 'div' });
  t.equal(other.live, false);
  t.match(other.observation, /Total 8\b/);
});
