// A request's abort signal reaches the handler on the worker, also when it aborted before the request was sent.
import t from 'tap';
import { startEcho } from '../fixtures/worker-rpc/start-echo.js';

t.test('aborting a request aborts the signal its handler sees', async (t) => {
  const rpc = await startEcho({ order: 'concurrent' });
  const ac = new AbortController();
  const running = rpc.request('hang', null, { signal: ac.signal });
  // The worker has taken the request once it has answered one sent after it (replies of a concurrent worker to
  // an echo come at once, the hang stays open).
  t.equal(await rpc.request('echo', 'after'), 'after');
  ac.abort();
  t.equal(await running, 'aborted', 'the handler saw the abort');
  t.equal(await rpc.request('hang', null, { signal: AbortSignal.abort() }), 'aborted', 'an already-aborted signal is passed on too');
  await rpc.close('echo');
});
