// Retry with backoff: a call tried again after a failure that is worth another try, waiting longer each time (the
// wait after the n-th failed try is n × backoffMs), up to a number of tries. Any other failure, and the last one, is
// thrown as it is, so the caller's handling of it is the same as without retries; a stop during a wait ends the
// tries with a TimerError whose cause is the failure before it.
import { checkMs, delay } from './delay.js';
import { TimerError } from './errors.js';

export interface RetryOptions<E> {
  /** Tries in all, the first included: an integer ≥ 1. */
  attempts: number;
  /** The wait after the n-th failed try is n × backoffMs. */
  backoffMs: number;
  /** Whether a failure is worth another try; any other is thrown at once. */
  retryable(err: unknown): err is E;
  /** Told before each wait: the failure, the try that failed (from 1) and how long the wait is. */
  onRetry?(err: E, attempt: number, waitMs: number): void;
  /** Ends the tries: before the first one, or during a wait (not a try already running). */
  signal?: AbortSignal;
}

/** Runs `call(attempt)` until it succeeds, a failure is not retryable, the tries run out or the signal aborts. */
export async function retry<T, E = unknown>(what: string, call: (attempt: number) => Promise<T>, o: RetryOptions<E>): Promise<T> {
  if (!Number.isSafeInteger(o.attempts) || o.attempts < 1)
    throw new TimerError(`${what}: attempts must be an integer ≥ 1, got ${String(o.attempts)}`, { what, field: 'attempts', got: String(o.attempts) });
  const bad = checkMs(what, 'backoffMs', o.backoffMs, 0);
  if (bad !== null) throw bad;
  if (o.signal?.aborted) throw new TimerError(`${what}: stopped before the first try`, { what, attempt: 0, stopped: true }, o.signal.reason);
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (err) {
      if (!o.retryable(err) || attempt >= o.attempts) throw err;
      const waitMs = o.backoffMs * attempt;
      o.onRetry?.(err, attempt, waitMs);
      if ((await delay(what, waitMs, o.signal)) === 'aborted')
        throw new TimerError(`${what}: stopped while waiting to retry after try ${attempt} of ${o.attempts}`, { what, attempt, stopped: true }, err);
    }
  }
}
