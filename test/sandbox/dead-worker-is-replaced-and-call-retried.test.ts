// A worker that dies while serving a call is replaced and the call retried once; a call stuck in a long C builtin
// is killed by the wall-clock watchdog as EnvTimeout, and the pool keeps serving.
import t from 'tap';
import { SandboxPool, isEnvTimeout } from '../../sandbox/index.js';
import { VALID_CODE, servesValid } from './helpers.js';

t.test('a worker killed mid-call is replaced and the call retried', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500 });
  t.teardown(() => pool.close());
  await servesValid(pool);
  const before = pool.threadIds()[0];
  const pending = pool.validate(VALID_CODE);
  await pool.terminateWorker(0);
  const report = await pending;
  t.ok(report.ok, 'the retried validation succeeded');
  t.equal(pool.stats().retries, 1, 'retried once');
  t.not(pool.threadIds()[0], before, 'a new thread serves the lane');
  t.equal((await servesValid(pool)).turn, 2);
});

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
