// A bounded wait: some milliseconds on the clock, cut short when a signal aborts. The one sleep that actors use
// (a standby's poll, a backoff, simulated work, a wait for data with a deadline), so that a stop never waits out an
// interval and no actor keeps a timer of its own.
import { TimerError } from './errors.js';

/** How a delay ended: its time was over, or its signal aborted first. */
export type DelayEnd = 'elapsed' | 'aborted';

/** The longest wait Node's timers take (2^31 - 1 ms); a longer one would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Rejects an interval that is not a number of milliseconds in [min, MAX_TIMER_MS], naming what it was for. */
export function checkMs(what: string, field: string, ms: number, min: number): TimerError | null {
  if (typeof ms === 'number' && ms >= min && ms <= MAX_TIMER_MS) return null;
  return new TimerError(`${what}: ${field} must be a number of milliseconds in [${min}, ${MAX_TIMER_MS}], got ${String(ms)}`, { what, field, got: String(ms) });
}

/**
 * Waits `ms`, or less when `signal` aborts (at once when it already has). It never rejects for an abort: it resolves
 * 'aborted' and the caller says what a stop means there. A deadline already past (ms < 0) waits no longer than 0 ms;
 * `ms` that is not a number, or is past MAX_TIMER_MS, rejects with a TimerError naming `what`.
 */
export function delay(what: string, ms: number, signal?: AbortSignal): Promise<DelayEnd> {
  const bad = checkMs(what, 'ms', ms, -Infinity);
  if (bad !== null) return Promise.reject(bad);
  if (signal?.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    const onAbort = (): void => (clearTimeout(timer), resolve('aborted'));
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve('elapsed')), Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
