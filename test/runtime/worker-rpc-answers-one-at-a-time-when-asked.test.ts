// A worker served one-at-a-time starts a request only after the one before it was answered; a concurrent one
// starts each on arrival.
import t from 'tap';
import { startEcho } from '../fixtures/worker-rpc/start-echo.js';

t.test('one-at-a-time keeps requests apart, concurrent lets them overlap', async (t) => {
  const inOrder = await startEcho({ order: 'one-at-a-time' });
  const [a, b] = await Promise.all([inOrder.request('slow', { ms: 50, tag: 'a' }), inOrder.request('slow', { ms: 0, tag: 'b' })]);
  t.same(a, ['a'], 'the first ran alone');
  t.same(b, ['a', 'b'], 'the second started after it');
  await inOrder.close('echo');

  const concurrent = await startEcho({ order: 'concurrent' });
  const [c] = await Promise.all([concurrent.request('slow', { ms: 200, tag: 'c' }), concurrent.request('slow', { ms: 0, tag: 'd' })]);
  t.same(c, ['c', 'd'], 'the second started while the first ran');
  await concurrent.close('echo');
});
