// A worker thread that dies fails the requests it held and every later one with one typed error, tells onDeath
// once, and a new one can be started in its place.
import t from 'tap';
import { isEchoError, startEcho, type EchoError } from '../fixtures/worker-rpc/start-echo.js';

t.test('a dead worker fails its in-flight requests typed and can be replaced', async (t) => {
  const deaths: EchoError[] = [];
  const rpc = await startEcho({ order: 'concurrent' }, { onDeath: (err) => deaths.push(err) });
  t.equal(rpc.ready, 'echo-ready', 'ready carries what the worker sent');
  t.same(await rpc.request('echo', { a: [1, 2] }), { a: [1, 2] });
  const held = rpc.request('hang', null);
  const exit = rpc.request('exit', 7);
  const [heldErr, exitErr] = await Promise.all([held.catch((e: unknown) => e), exit.catch((e: unknown) => e)]);
  t.ok(isEchoError(heldErr), `the request it held fails typed: ${String(heldErr)}`);
  t.equal(heldErr, exitErr, 'one error for all it held');
  t.match((heldErr as EchoError).failure, { kind: 'exited', code: 7, starting: false, closing: false });
  t.equal(rpc.dead, heldErr, 'the rpc says it is dead');
  await t.rejects(rpc.request('echo', 1), heldErr as EchoError, 'a later request fails at once with the same error');
  t.same(deaths, [heldErr], 'onDeath told once');
  const again = await startEcho({ order: 'concurrent' });
  t.equal(await again.request('echo', 'back'), 'back', 'a new worker serves in its place');
  await again.close('echo');
});
