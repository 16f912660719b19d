// Publishing a handler's outputs through a stream that is briefly unavailable. While a stream elects a new leader
// (its server was lost) the server answers a publish with "no responders" or not at all; the outputs are computed
// and their msgIDs make a repeat harmless (the stream deduplicates within delivery.duplicateWindowMs), so the host
// tries again for up to delivery.publishRetryMs rather than failing the task and redoing its work. Any other error,
// and the same errors once the time is up, go to the caller as before.
import type { JetStreamClient } from '@nats-io/jetstream';
import type { ActorOutput } from './actor.js';
import { isTransientPublishError } from './jetstream-retry.js';
import { encode } from './messages.js';
import { sayOnce } from './log.js';

/** Delays between tries; the last one repeats. */
const RETRY_DELAYS_MS = [100, 250, 500, 1_000, 2_000];

export interface PublishRetry {
  /** How long to keep trying after the first failure. */
  retryMs: number;
  /** Told of each failed try that will be retried. */
  onRetry?: (err: Error, attempt: number) => void;
  signal?: AbortSignal;
}

export async function publishRetrying(js: JetStreamClient, subject: string, data: Uint8Array, msgID: string | undefined, o: PublishRetry): Promise<void> {
  const until = Date.now() + o.retryMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await js.publish(subject, data, msgID === undefined ? {} : { msgID });
      return;
    } catch (err) {
      const wait = RETRY_DELAYS_MS[Math.min(attempt - 1, RETRY_DELAYS_MS.length - 1)]!;
      if (!isTransientPublishError(err) || Date.now() + wait > until || o.signal?.aborted) throw err;
      o.onRetry?.(err as Error, attempt);
      await new Promise((res) => setTimeout(res, wait));
    }
  }
}

/** A handler's outputs, all at once, each retried as above; a retry is said once per role (and once a minute). */
export function publishOutputs(js: JetStreamClient, outputs: readonly ActorOutput[], o: { retryMs: number; signal: AbortSignal; log: (line: string) => void }): Promise<void> {
  const say = sayOnce(o.log);
  const retry: PublishRetry = { retryMs: o.retryMs, signal: o.signal, onRetry: (err) => say(`publishing outputs failed (${err.message}); retrying for up to ${o.retryMs} ms`) };
  return Promise.all(outputs.map((out) => publishRetrying(js, out.subject, encode(out.type, out.body), out.msgId, retry))).then(() => undefined);
}
