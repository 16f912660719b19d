// Pure logic: leases of one SharedInstance share what the first one opened, and only the last release closes it.
import t from 'tap';
import { SharedInstance } from '../../runtime/lease.js';

t.test('the instance is opened once, shared, and closed by the last release only', async (t) => {
  const closed: number[] = [];
  let opened = 0;
  const shared = new SharedInstance<{ n: number }>(async (v) => void closed.push(v.n));
  const open = async (): Promise<{ n: number }> => ({ n: ++opened });
  const others: string[] = [];
  // Both leases asked for before the open settles: the second must not open a second instance.
  const [a, b] = await Promise.all([shared.lease('x', open), shared.lease('y', open, () => others.push('y'))]);
  t.equal(opened, 1, 'opened once');
  t.equal(a.value, b.value, 'one instance');
  t.same(others, ['y'], 'a lease asking with another key is told it shares the open one');
  t.equal(shared.leases, 2);
  await a.release();
  await a.release(); // a second release of the same lease does not count
  t.same(closed, [], 'still open while a lease is held');
  await b.release();
  t.same(closed, [1], 'closed by the last release');
  const c = await shared.lease('x', open);
  t.equal(c.value.n, 2, 'a lease after the close opens a new instance');
  await c.release();
  t.same(closed, [1, 2]);
});
