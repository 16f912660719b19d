// The one runtime for a pure logic (`transition(state, event) → effects`), as XState v5's actor runtime is for
// machines: a serial mailbox, delayed and repeating events, long effects performed off the mailbox whose results come
// back as events, and a stop that cancels the timers and waits for what is in flight. Actors keep their logic pure
// and say here only how each effect is performed; they keep no mailbox or timer of their own.
import { EffectError } from './errors.js';

export interface LogicDriverOptions<E, F> {
  /** One step of the logic: applies the event to its state and returns what to do, in order. */
  transition(event: E): readonly F[];
  /**
   * Performs one effect. A promise is awaited before the next effect (and the next event): keep it short, and hand
   * long work to `driver.later()`. A failure skips the event's remaining effects (see `failed`).
   */
  perform(effect: F, driver: LogicDriver<E>): void | Promise<void>;
  /**
   * The event a failed effect becomes. A failure while performing an event's effects is handled at once, ahead of
   * queued events (its own effects' failures are ignored: the logic is already failing); a failure of work run with
   * `later()` arrives as the next event. Absent, or returning undefined: the failure goes only to the sender (the
   * rejected send()) or, for later() work and the events the driver sent itself, to `onError`.
   */
  failed?(error: Error): E | undefined;
  /** After each event whose effects were all performed. */
  settled?(event: E): void;
  /** Timers do not keep the process alive (default false: a pending delayed event does). */
  unref?: boolean;
  /** A failure nobody awaits: an event the driver itself sent (a timer, a later() result) whose handling failed. */
  onError?(error: Error): void;
}

export interface LogicDriver<E> {
  /** Queues an event; it is handled once those before it are. Resolves when its effects are performed; rejects with the first failure. */
  send(event: E): Promise<void>;
  /** Sends `event` after `ms`; a second call with the same `key` replaces the first. Cancelled by stop(). */
  after(ms: number, event: E, key?: string): void;
  /** Sends `event` every `ms` until stop(). */
  every(ms: number, event: E): void;
  /** Runs long work off the mailbox; the event it resolves to is sent, a failure becomes `failed(error)`. */
  later(work: () => Promise<E>): void;
  /**
   * Cancels the timers, sends `last` if given (the logic's own stop event: it comes after the final timer event), then
   * waits until no work runs off the mailbox and the mailbox is empty. A failure of `last` goes to `onError`.
   */
  stop(last?: E): Promise<void>;
  /** True once stop() was called: no more timers are set. */
  readonly stopped: boolean;
}

interface Letter<E> {
  event: E;
  resolve: () => void;
  reject: (err: Error) => void;
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new EffectError(`an effect failed: ${String(err)}`, { thrown: String(err) }));

/** Starts driving a logic. Events are handled one at a time in arrival order; an idle driver handles one synchronously. */
export function runLogic<E, F>(o: LogicDriverOptions<E, F>): LogicDriver<E> {
  const mailbox: Letter<E>[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  const intervals = new Set<NodeJS.Timeout>();
  const working = new Set<Promise<void>>();
  let busy = false;
  let stopped = false;
  const idle: Array<() => void> = [];
  let anonymous = 0;

  const report = (err: unknown) => o.onError?.(asError(err));
  const post = (event: E) => void driver.send(event).catch(report);

  /** Performs effects in order; sync effects stay synchronous so that an idle driver handles an event at once. */
  function performAll(effects: readonly F[], from: number): void | Promise<void> {
    for (let i = from; i < effects.length; i++) {
      const r = o.perform(effects[i]!, driver);
      if (r && typeof (r as Promise<void>).then === 'function') return (r as Promise<void>).then(() => performAll(effects, i + 1));
    }
  }

  /** The failed event of an effect that failed while its event was handled; the sender sees the error itself. */
  async function fail(err: Error): Promise<void> {
    const e = o.failed?.(err);
    if (e === undefined) return;
    try {
      for (const f of o.transition(e)) await Promise.resolve().then(() => o.perform(f, driver)).catch(() => undefined);
    } catch {
      // The failure's own transition threw: the original error is what the sender sees.
    }
  }

  async function drain(): Promise<void> {
    busy = true;
    while (mailbox.length > 0) {
      const { event, resolve, reject } = mailbox.shift()!;
      try {
        const r = performAll(o.transition(event), 0);
        if (r) await r;
        o.settled?.(event);
        resolve();
      } catch (thrown) {
        const err = asError(thrown);
        await fail(err);
        reject(err);
      }
    }
    busy = false;
    if (working.size === 0) for (const r of idle.splice(0)) r();
  }

  const driver: LogicDriver<E> = {
    get stopped() {
      return stopped;
    },
    send(event) {
      return new Promise<void>((resolve, reject) => {
        mailbox.push({ event, resolve, reject });
        if (!busy) void drain();
      });
    },
    after(ms, event, key = `#${anonymous++}`) {
      if (stopped) return;
      clearTimeout(timers.get(key));
      const t = setTimeout(() => (timers.delete(key), post(event)), ms);
      if (o.unref) t.unref();
      timers.set(key, t);
    },
    every(ms, event) {
      if (stopped) return;
      const t = setInterval(() => post(event), ms);
      if (o.unref) t.unref();
      intervals.add(t);
    },
    later(work) {
      // Started on the next microtask: work that calls back into what emitted the event never runs inside that call.
      const run: Promise<void> = Promise.resolve().then(work).then(
        (e) => post(e),
        (err) => {
          const e = o.failed?.(asError(err));
          if (e === undefined) report(err);
          else post(e);
        },
      ).finally(() => {
        working.delete(run);
        if (working.size === 0 && !busy && mailbox.length === 0) for (const r of idle.splice(0)) r();
      });
      working.add(run);
    },
    async stop(last) {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
      for (const t of intervals) clearInterval(t);
      timers.clear();
      intervals.clear();
      if (last !== undefined) post(last);
      // A later() result sends one more event, which may start more work: wait until both are quiet.
      while (busy || working.size > 0 || mailbox.length > 0) await new Promise<void>((r) => idle.push(r));
    },
  };
  return driver;
}
