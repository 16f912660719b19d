// Calls JetStream until it answers: a call that times out, finds no responders or gets status 503 (a cluster electing
// its meta or a stream leader after a server was lost; a server that restarted and is still recovering its store) is
// tried again every second, said once; any other failure (a refused permission, a missing stream) is thrown at once.
// Used where a host would otherwise exit at start: declaring the topology, opening subscriptions, the first heartbeat.
import { jserrors } from '@nats-io/jetstream/internal';
import { errors } from '@nats-io/nats-core';
import { delay } from './delay.js';
import { HostError } from './errors.js';
import { sayOnce } from './log.js';

/** The server had no stream leader to answer (or did not answer in time): worth another try; publish.ts retries a publish on exactly these. */
export const isTransientPublishError = (err: unknown): boolean => err instanceof jserrors.JetStreamNotEnabled || err instanceof errors.TimeoutError;

/** JetStream had no one to answer, or not in time (no leader yet); also when wrapped as the cause of another error. */
export const isTransientJetStreamError = (err: unknown): boolean => {
  const transient = (e: unknown): boolean => isTransientPublishError(e) || (e instanceof jserrors.JetStreamApiError && e.status === 503);
  return transient(err) || (err instanceof Error && transient(err.cause));
};

export interface UntilAnsweredOptions {
  /** Between tries (default 1 000 ms). */
  everyMs?: number;
  /** Ends the tries at once (the host is stopping): the call then fails with a HostError whose data says `stopped`. */
  signal?: AbortSignal;
}

/** Thrown when `signal` ended the tries before JetStream answered. */
const stopped = (what: string, signal: AbortSignal): HostError =>
  new HostError(`${what}: stopped before JetStream answered`, { what, stopped: true }, signal.reason);

/** Runs `call` until it succeeds, again every `everyMs` while it fails transiently; says so once, then `<what>: open`/`done`. */
export async function untilAnswered<T>(what: string, call: () => Promise<T>, log: (line: string) => void, o: UntilAnsweredOptions & { done?: string } = {}): Promise<T> {
  const everyMs = o.everyMs ?? 1_000;
  const { signal } = o;
  const say = sayOnce(log);
  for (;;) {
    if (signal?.aborted) throw stopped(what, signal);
    try {
      const v = await call();
      if (say.said()) log(`${what}: ${o.done ?? 'done'}`);
      return v;
    } catch (err) {
      if (!isTransientJetStreamError(err)) throw err;
      if (signal?.aborted) throw stopped(what, signal);
      say(`${what}: JetStream did not answer (${(err as Error).message}); trying again every ${everyMs} ms`);
    }
    // The wait ends early when the host stops, so a stop does not wait out the interval.
    await delay(what, everyMs, signal);
  }
}
