// Pure logic: an open that fails reaches every lease waiting on it, and the next lease opens afresh.
import t from 'tap';
import { SharedInstance } from '../../runtime/lease.js';

t.test('a failed open fails its waiting leases and is tried again by the next lease', async (t) => {
  let attempts = 0;
  const shared = new SharedInstance<string>(async () => undefined);
  const failing = async (): Promise<string> => {
    attempts++;
    throw new RangeError('cannot open');
  };
  const a = shared.lease('k', failing);
  const b = shared.lease('k', failing);
  await t.rejects(a, { name: 'RangeError', message: 'cannot open' });
  await t.rejects(b, { name: 'RangeError', message: 'cannot open' }, 'a lease waiting on the same open gets its error');
  t.equal(attempts, 1, 'both waited on one open');
  t.equal(shared.leases, 0, 'no lease is counted for a failed open');
  const c = await shared.lease('k', () => 'ok');
  t.equal(c.value, 'ok', 'the next lease opens again');
  t.equal(attempts, 1);
  await c.release();
});
