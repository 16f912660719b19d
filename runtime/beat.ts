// A periodic beat: a tick every so many milliseconds, for upkeep that runs beside an actor's work (a heartbeat, a
// lease's refresh). A tick still running when the next is due is not doubled: that next one is skipped. A beat never
// keeps the process alive: what it keeps up is the work of something that does.
import { checkMs } from './delay.js';
import { TimerError } from './errors.js';

export interface BeatOptions {
  /**
   * A tick that threw or rejected, as a TimerError naming the beat with the failure as its cause; the beat goes on
   * (the next tick is the retry). Required: each user says what a missed tick means to it.
   */
  onError(error: TimerError): void;
  /** Ends the beat as stop() does. */
  signal?: AbortSignal;
}

export interface Beat {
  /** Ends the beat: no tick starts after it (a tick already running finishes on its own). Idempotent. */
  stop(): void;
  /** True once stop() was called or the signal aborted. */
  readonly stopped: boolean;
}

/**
 * Calls `tick` every `everyMs` (the first one `everyMs` from now) until stopped. `what` names the beat in its errors;
 * `everyMs` outside [1, MAX_TIMER_MS] throws a TimerError at once.
 */
export function beat(what: string, everyMs: number, tick: () => void | Promise<void>, o: BeatOptions): Beat {
  const bad = checkMs(what, 'everyMs', everyMs, 1);
  if (bad !== null) throw bad;
  let running = false;
  let stopped = false;
  const failed = (err: unknown): void => {
    const message = err instanceof Error ? err.message : String(err);
    o.onError(new TimerError(`${what}: a tick failed: ${message}`, { what }, err));
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = true;
    let r: void | Promise<void>;
    try {
      r = tick();
    } catch (err) {
      running = false;
      return failed(err);
    }
    void Promise.resolve(r).then(() => undefined, failed).finally(() => (running = false));
  }, everyMs);
  timer.unref();
  const stop = (): void => {
    stopped = true;
    clearInterval(timer);
    o.signal?.removeEventListener('abort', stop);
  };
  if (o.signal?.aborted) stop();
  else o.signal?.addEventListener('abort', stop, { once: true });
  return {
    stop,
    get stopped() {
      return stopped;
    },
  };
}
