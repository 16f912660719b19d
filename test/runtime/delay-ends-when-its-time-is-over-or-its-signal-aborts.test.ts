// runtime/delay.ts: a delay resolves 'elapsed' once its time is over and 'aborted' as soon as its signal aborts (at
// once when it already had), never rejecting for a stop; a bad interval rejects with a TimerError naming the wait.
import t from 'tap';
import { isTimerError } from '../../runtime/errors.js';
import { delay } from '../../runtime/delay.js';

t.test('a delay ends when its time is over or its signal aborts', async (t) => {
  let t0 = performance.now();
  t.equal(await delay('plain wait', 40), 'elapsed');
  t.ok(performance.now() - t0 >= 35, 'waited its time');

  const ac = new AbortController();
  t0 = performance.now();
  setTimeout(() => ac.abort(new Error('host stopping')), 20).unref();
  t.equal(await delay('standby', 10_000, ac.signal), 'aborted', 'the abort ends it');
  t.ok(performance.now() - t0 < 5_000, 'without waiting out the interval');

  t.equal(await delay('standby', 10_000, AbortSignal.abort()), 'aborted', 'an aborted signal ends it at once');
  t.equal(await delay('past deadline', -5), 'elapsed', 'a deadline already past waits no time');
  t.equal(await delay('quiet signal', 5, new AbortController().signal), 'elapsed', 'a signal that never aborts changes nothing');

  for (const ms of [Number.NaN, Infinity, 2 ** 31]) {
    const err = await delay('learner lock (h1): standby', ms).then(() => null, (e: unknown) => e);
    t.ok(isTimerError(err), `${ms} is refused with a TimerError`);
    t.match((err as Error).message, /^learner lock \(h1\): standby: ms must be a number of milliseconds/, 'the message names the wait and the field');
    t.equal((err as { data: { got: string } }).data.got, String(ms), 'and carries what it got');
  }
});
