// A request that throws on the worker fails on the main side with the caller's typed error, naming the op and
// carrying the worker's error name and code; the thread goes on serving.
import t from 'tap';
import { isEchoError, startEcho, type EchoError } from '../fixtures/worker-rpc/start-echo.js';

t.test('a failed request is typed, names its op and keeps the remote name and code', async (t) => {
  const metas: [unknown, boolean][] = [];
  const rpc = await startEcho({ order: 'concurrent' }, { onReply: (meta, ok) => metas.push([meta, ok]) });
  const err = await rpc.request('fail', 'no such thing').catch((e: unknown) => e);
  t.ok(isEchoError(err), String(err));
  t.match((err as EchoError).failure, { kind: 'request-failed', op: 'fail', remote: { name: 'EchoFailure', code: 'ECHO_FAILURE', message: 'no such thing' } });
  t.equal(rpc.dead, null, 'the thread lives on');
  t.equal(await rpc.request('echo', 3), 3);
  t.same(metas, [[0, false], [1, true]], 'every reply brings its meta, failed or not');
  await rpc.close('echo');
});
