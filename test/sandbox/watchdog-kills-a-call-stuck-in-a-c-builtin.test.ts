// A call stuck in a long C builtin is killed by the wall-clock watchdog as EnvTimeout, is not retried, and the
// pool keeps serving.
import t from 'tap';
import { SandboxPool, isEnvTimeout } from '../../sandbox/index.js';
import { VALID_CODE, servesValid } from './helpers.js';

t.test('the watchdog kills a call stuck in a C builtin', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 400 });
  t.teardown(() => pool.close());
  const stuck = VALID_CODE.replace('this.total = 0;', 'this.total = 0; this.x = new Array(1e9).indexOf(1);');
  const err = await pool.reset({ code: stuck, seed: 1 }).catch((e: unknown) => e);
  t.ok(isEnvTimeout(err), `EnvTimeout: ${(err as Error).message}`);
  t.equal(pool.stats().watchdogKills, 1);
  t.equal(pool.stats().retries, 0, 'a watchdog kill is not retried');
  t.equal((await servesValid(pool)).turn, 2, 'the replacement worker serves');
});
