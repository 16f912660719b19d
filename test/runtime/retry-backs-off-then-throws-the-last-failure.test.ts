// runtime/retry.ts: a retryable failure is tried again after n × backoffMs, up to `attempts` tries; a failure that
// is not retryable, and the last one, are thrown as they are; an abort during a wait ends the tries with a TimerError
// naming the call; bad options are refused naming the field.
import t from 'tap';
import { isTimerError } from '../../runtime/errors.js';
import { retry } from '../../runtime/retry.js';

class Flaky extends Error {}
class Broken extends Error {}
const isFlaky = (e: unknown): e is Flaky => e instanceof Flaky;

t.test('retry backs off, then throws the last failure as it is', async (t) => {
  // Succeeds on the third try, after waits of 1 and 2 × backoffMs.
  const waits: number[] = [];
  let t0 = performance.now();
  const v = await retry('publish v3', async (attempt) => {
    if (attempt < 3) throw new Flaky(`try ${attempt}`);
    return attempt;
  }, { attempts: 5, backoffMs: 15, retryable: isFlaky, onRetry: (err, attempt, ms) => {
    waits.push(attempt, ms);
    t.equal(err.message, `try ${attempt}`, 'told the failure of that try');
  } });
  t.equal(v, 3, 'the value of the try that succeeded');
  t.same(waits, [1, 15, 2, 30], 'linear backoff: n × backoffMs after the n-th try');
  t.ok(performance.now() - t0 >= 40, 'and it waited them');

  // Not retryable: thrown at once, as it is.
  let tries = 0;
  const broken = new Broken('refused');
  await t.rejects(retry('publish v4', async () => { tries++; throw broken; }, { attempts: 5, backoffMs: 1, retryable: isFlaky }), broken);
  t.equal(tries, 1, 'no second try');

  // Out of tries: the last failure, as it is.
  tries = 0;
  await t.rejects(retry('join', async () => { throw new Flaky(`try ${++tries}`); }, { attempts: 3, backoffMs: 1, retryable: isFlaky }), { message: 'try 3' });
  t.equal(tries, 3, 'attempts counts every try');

  // An abort during a wait ends the tries at once.
  const ac = new AbortController();
  t0 = performance.now();
  const stopped = await retry('learner (h1): publish v5', async () => { throw new Flaky('no leader'); }, {
    attempts: 5, backoffMs: 10_000, retryable: isFlaky, signal: ac.signal, onRetry: () => void setTimeout(() => ac.abort(), 10),
  }).catch((e: unknown) => e);
  t.ok(performance.now() - t0 < 5_000, 'without waiting out the backoff');
  t.ok(isTimerError(stopped));
  t.match((stopped as Error).message, /^learner \(h1\): publish v5: stopped while waiting to retry after try 1 of 5$/);
  t.equal(((stopped as Error).cause as Error).message, 'no leader', 'the failure before the stop is its cause');
  tries = 0;
  await t.rejects(retry('join', async () => void tries++, { attempts: 2, backoffMs: 1, retryable: isFlaky, signal: AbortSignal.abort() }), { name: 'TimerError', message: 'join: stopped before the first try' });
  t.equal(tries, 0, 'an aborted signal tries nothing');

  await t.rejects(retry('join', async () => 1, { attempts: 0, backoffMs: 1, retryable: isFlaky }), { name: 'TimerError', message: /^join: attempts must be an integer ≥ 1, got 0$/ });
  await t.rejects(retry('join', async () => 1, { attempts: 2, backoffMs: -1, retryable: isFlaky }), { name: 'TimerError', message: /^join: backoffMs must be a number of milliseconds/ });
});
