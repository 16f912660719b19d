// runtime/beat.ts: a beat ticks every interval, skips a tick while the one before is still running, reports a failed
// tick as a TimerError naming the beat and goes on, and ends on stop() or its signal's abort; a bad interval is refused.
import t from 'tap';
import { beat } from '../../runtime/beat.js';
import { isTimerError, type TimerError } from '../../runtime/errors.js';

const until = async (cond: () => boolean, ms = 5_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

t.test('a beat ticks without overlap until stopped', async (t) => {
  // Repeats, and a slow tick is never doubled.
  let ticks = 0, running = 0, most = 0;
  const slow = beat('slow beat', 5, async () => {
    ticks++;
    most = Math.max(most, ++running);
    await new Promise((r) => setTimeout(r, 30));
    running--;
  }, { onError: () => t.fail('no tick fails') });
  await until(() => ticks >= 3);
  slow.stop();
  t.equal(most, 1, 'a tick due while one runs was skipped, not started beside it');
  t.ok(slow.stopped);
  const after = ticks;
  await new Promise((r) => setTimeout(r, 40));
  t.equal(ticks, after, 'no tick starts after stop()');

  // A failing tick (thrown or rejected) is reported, and the beat goes on.
  const errors: TimerError[] = [];
  let n = 0;
  const failing = beat('learner group heartbeat (h1)', 5, () => {
    n++;
    if (n === 1) throw new Error('kv put timed out');
    if (n === 2) return Promise.reject(new Error('no responders'));
  }, { onError: (e) => errors.push(e) });
  await until(() => n >= 4);
  failing.stop();
  t.equal(errors.length, 2, 'both failures were reported');
  t.ok(errors.every(isTimerError));
  t.match(errors[0]!.message, /^learner group heartbeat \(h1\): a tick failed: kv put timed out$/, 'the error names the beat and says what failed');
  t.equal((errors[1]!.cause as Error).message, 'no responders', 'with the failure as its cause');

  // The signal ends it, also when it had aborted already.
  const ac = new AbortController();
  let m = 0;
  const aborted = beat('refresh', 5, () => void m++, { onError: () => undefined, signal: ac.signal });
  await until(() => m >= 1);
  ac.abort();
  t.ok(aborted.stopped, 'the abort stopped it');
  const at = m;
  await new Promise((r) => setTimeout(r, 30));
  t.equal(m, at, 'no tick after the abort');
  let never = 0;
  const pre = beat('refresh', 5, () => void never++, { onError: () => undefined, signal: AbortSignal.abort() });
  await new Promise((r) => setTimeout(r, 30));
  t.ok(pre.stopped && never === 0, 'an aborted signal stops it before its first tick');

  for (const ms of [0, -1, Number.NaN]) {
    t.throws(() => beat('lease refresh (h2)', ms, () => undefined, { onError: () => undefined }), { name: 'TimerError', message: /^lease refresh \(h2\): everyMs must be a number of milliseconds in \[1, / }, `${ms} is refused naming the beat`);
  }
});
