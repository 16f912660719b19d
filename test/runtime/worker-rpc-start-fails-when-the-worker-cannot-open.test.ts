// A worker whose open step throws never becomes ready: the start fails with the caller's typed error and the
// worker's error in plain form.
import t from 'tap';
import { isEchoError, startEcho, type EchoError } from '../fixtures/worker-rpc/start-echo.js';

t.test('a worker whose open throws fails the start, typed', async (t) => {
  const err = await startEcho({ order: 'concurrent', failOpen: true }).then(() => null, (e: unknown) => e);
  t.ok(isEchoError(err), String(err));
  t.match((err as EchoError).failure, { kind: 'start-failed', remote: { name: 'EchoFailure', message: 'cannot open the echo state' } });
});
