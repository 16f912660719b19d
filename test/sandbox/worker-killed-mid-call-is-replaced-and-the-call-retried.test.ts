// A worker that dies while serving a call is replaced by a new thread and the call retried once.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';
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
