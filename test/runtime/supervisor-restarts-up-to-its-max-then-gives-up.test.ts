// runtime/supervise.ts: a failure worth a restart is restarted, counted, up to maxRestarts; the next one gives up
// ('exhausted'), as does at once a failure that is not worth a restart ('permanent') and a restart that fails itself
// ('restart-failed'); settled() waits for a restart in progress; failures after the signal aborts are ignored; a bad
// maxRestarts is refused naming the field.
import t from 'tap';
import { isSupervisorError } from '../../runtime/errors.js';
import { supervise, type GiveUp } from '../../runtime/supervise.js';

class Flaky extends Error {}
class Diverged extends Error {}
const after = <T>(ms: number, v: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(v), ms));

t.test('a supervisor restarts up to its max, then gives up', async (t) => {
  const events: string[] = [];
  const ends: GiveUp[] = [];
  const ac = new AbortController();
  const sup = supervise('restarting the worker', {
    maxRestarts: 2, signal: ac.signal,
    restartable: (err) => !(err instanceof Diverged),
    onRestart: (err, n, max) => events.push(`restart ${n} of ${max}: ${err.message}`),
    restart: (n) => (events.push(`build ${n}`), after(20, n).then(() => void events.push(`built ${n}`))),
    onGiveUp: (end) => (ends.push(end), events.push(`give up: ${end.reason}`)),
  });
  t.equal(sup.pending, false, 'nothing pending before a failure');
  t.equal(sup.restarts, 0);

  // A restart is told, then built, synchronously in failed(); it stays pending until the caller says up().
  sup.failed(new Flaky('update 1 failed'));
  t.same(events, ['restart 1 of 2: update 1 failed', 'build 1'], 'told before the build, both at once');
  t.equal(sup.pending, true, 'pending once a restart is asked for');
  await sup.settled();
  t.equal(events.at(-1), 'built 1', 'settled() waited for the restart in progress');
  t.equal(sup.pending, true, 'still pending: only the caller knows when the replacement is up');
  sup.up();
  t.equal(sup.pending, false, 'up() ends it');

  // A failure not worth a restart gives up at once, without a restart or a count.
  const diverged = new Diverged('loss is NaN');
  sup.failed(diverged);
  t.equal(sup.restarts, 1, 'a permanent failure is not counted');
  t.same(ends.at(-1), { reason: 'permanent', error: diverged, restarts: 1, maxRestarts: 2 });

  // The second restart is the last one; the failure after it gives up, saying how many restarts were made.
  sup.failed(new Flaky('update 2 failed'));
  sup.up();
  await sup.settled();
  const last = new Flaky('update 3 failed');
  sup.failed(last);
  t.equal(sup.restarts, 2);
  t.same(ends.at(-1), { reason: 'exhausted', error: last, restarts: 2, maxRestarts: 2 });
  t.same(events.filter((e) => e.startsWith('build ')), ['build 1', 'build 2'], 'no third restart');

  // A restart that fails itself gives up, with its own failure; a non-Error thrown is named as the restart's.
  const refused = new Flaky('no stream');
  const broken = supervise('restarting the worker', {
    maxRestarts: 3, restartable: () => true, restart: () => Promise.reject(refused), onGiveUp: (end) => ends.push(end),
  });
  broken.failed(new Flaky('update failed'));
  await broken.settled();
  t.same(ends.at(-1), { reason: 'restart-failed', error: refused, restarts: 1, maxRestarts: 3 });
  const odd = supervise('restarting the worker', {
    maxRestarts: 1, restartable: () => true, restart: () => { throw 'gone'; }, onGiveUp: (end) => ends.push(end),
  });
  odd.failed(new Flaky('update failed'));
  await odd.settled();
  t.ok(isSupervisorError(ends.at(-1)?.error), 'a thrown non-Error becomes a SupervisorError');
  t.equal(ends.at(-1)?.error.message, 'restarting the worker: a restart failed: gone');

  // Once the signal aborts (a stop), failures are neither restarted nor given up on.
  const n = { events: events.length, ends: ends.length };
  ac.abort();
  sup.failed(new Flaky('update 4 failed'));
  sup.failed(new Diverged('loss is NaN'));
  t.equal(events.length, n.events, 'nothing restarted after the abort');
  t.equal(ends.length, n.ends, 'nothing given up on after the abort');

  for (const bad of [-1, 1.5, NaN]) {
    t.throws(() => supervise('restarting the worker', { maxRestarts: bad, restartable: () => true, restart: async () => 1, onGiveUp: () => undefined }), {
      name: 'SupervisorError', message: `restarting the worker: maxRestarts must be an integer ≥ 0, got ${String(bad)}`,
    });
  }
});
