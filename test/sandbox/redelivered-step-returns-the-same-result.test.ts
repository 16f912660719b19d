// Step requests carry the whole episode: a redelivered request is answered again without stepping, and the live
// instance then moves on.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';
import { VALID_CODE } from './helpers.js';

const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
t.teardown(() => pool.close());

t.test('a redelivered step returns the same result without stepping again', async (t) => {
  const r0 = await pool.reset({ code: VALID_CODE, seed: 4, episodeId: 'idem' });
  const req = { codeHash: r0.codeHash, seed: 4, actions: ['3'], episodeId: 'idem' };
  const once = await pool.step(req);
  const twice = await pool.step(req);
  t.same(twice, once);
  const next = await pool.step({ ...req, actions: ['3', '4'] });
  t.equal(next.turn, 2);
  t.equal(next.live, true, 'the live instance moved on');
});
