// Step requests carry the whole episode: a redelivered request is answered again without stepping, stepping past
// the end is a contract error, and a hash the pool never saw asks for the code.
import t from 'tap';
import {
  SandboxPool, isEnvContract, isSandboxCodeMissing, isSandboxError, isEnvTimeout,
} from '../../sandbox/index.js';
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

t.test('a diverging history replays instead of reusing the live instance', async (t) => {
  const r0 = await pool.reset({ code: VALID_CODE, seed: 5, episodeId: 'div' });
  await pool.step({ codeHash: r0.codeHash, seed: 5, actions: ['3'], episodeId: 'div' });
  const other = await pool.step({ codeHash: r0.codeHash, seed: 5, actions: ['4', '4'], episodeId: 'div' });
  t.equal(other.live, false);
  t.match(other.observation, /Total 8\b/);
});

t.test('stepping after the episode ended is a contract error', async (t) => {
  const r0 = await pool.reset({ code: VALID_CODE, seed: 6 });
  const total = Number(/Target (\d+)/.exec(r0.observation)![1]);
  const actions: string[] = [];
  for (let left = total; left > 0; left -= 9) actions.push(String(Math.min(9, left)));
  const done = await pool.step({ codeHash: r0.codeHash, seed: 6, actions });
  t.ok(done.terminated || done.truncated);
  await t.rejects(pool.step({ codeHash: r0.codeHash, seed: 6, actions: [...actions, '1'] }), { name: 'EnvContract' });
  await pool.step({ codeHash: r0.codeHash, seed: 6, actions: [...actions, '1'] }).catch((e: unknown) => t.ok(isEnvContract(e)));
});

t.test('an unknown hash asks for the code; bad requests are typed errors', async (t) => {
  const missing = await pool.step({ codeHash: 'f'.repeat(64), seed: 1, actions: ['1'] }).catch((e: unknown) => e);
  t.ok(isSandboxCodeMissing(missing), 'SandboxCodeMissing');
  const bad = await pool.step({ code: VALID_CODE, seed: 1.5, actions: ['1'] }).catch((e: unknown) => e);
  t.ok(isSandboxError(bad) && !isEnvTimeout(bad), 'a non-integer seed is a SandboxRequestError');
  t.equal((bad as Error).name, 'SandboxRequestError');
  const wrong = await pool.step({ code: VALID_CODE, codeHash: 'a'.repeat(64), seed: 1, actions: ['1'] }).catch((e: unknown) => e);
  t.equal((wrong as Error).name, 'SandboxRequestError', 'a hash that does not match its code');
});
