// One building block for everything that follows a stream or a KV bucket: a durable work-queue consumer (the host),
// an ephemeral consumer over stored subjects (coordinator, `spade tail`), an ordered consumer over a transient stream
// (the learner group's reduce) or a KV watch (memory store, weight watcher, the learner group's heartbeats). Each is
// an async iterator of data, as nats.js v3 gives them: control events come apart from the data on status(), a
// failure of the subscription is thrown into the loop, and leaving the loop (break, return, throw) closes the
// subscription. Nothing else in the code base calls consume(), fetch(), next() or watch().
import { AckPolicy, DeliverPolicy, type ConsumerMessages, type ConsumerNotification, type JsMsg } from '@nats-io/jetstream';
import type { KV, KvWatchEntry } from '@nats-io/kv';
import type { QueuedIterator } from '@nats-io/nats-core';
import type { Connection } from './connection.js';

/** A control event of a follow: the consumer's own notifications, or `ended` once the data loop is over. */
export type FollowStatus = ConsumerNotification | { type: 'ended'; error?: Error };

export interface Follow<T> extends AsyncIterable<T> {
  /** Control events (heartbeats missed, consumer deleted, ...), kept apart from the data; ends with `ended`. */
  status(): AsyncIterable<FollowStatus>;
  /** Stops the subscription; a loop over it ends after the data already received. */
  close(): Promise<void>;
}

/** Where an ephemeral consumer starts: everything stored, only new messages, or from a point in time. */
export type FollowFrom = 'all' | 'new' | { since: Date };

export interface DurableFollow {
  stream: string;
  durable: string;
  /** Messages the server may push ahead of the loop. */
  maxMessages: number;
}

export interface StreamFollow {
  stream: string;
  filter: string;
  from: FollowFrom;
  maxMessages?: number;
}

export interface OrderedFollow {
  /** Every subject of the stream: no filter (a filter is nats-server 2.10's `filter_subjects` in some clients). */
  stream: string;
  from: FollowFrom;
  /** Messages the server may push ahead of the loop. */
  maxMessages: number;
}

/**
 * How long one pull request waits on the server. nats.js sends heartbeats every half of it and re-pulls after two
 * are missed, so this bounds how long a consumer stays blind after its server (or the consumer's leader) is lost:
 * at the library's default of 30 s a host waited up to ~40 s to see work again after a leader was killed; at 5 s it
 * is ~5–10 s, for one idle pull request per consumer every 5 s.
 */
export const PULL_EXPIRES_MS = 5_000;

/** Follows a durable consumer; the caller acks each message (work queues). */
export async function followDurable(conn: Pick<Connection, 'js'>, d: DurableFollow): Promise<Follow<JsMsg>> {
  const consumer = await conn.js.consumers.get(d.stream, d.durable);
  return fromConsumer(await consumer.consume({ max_messages: d.maxMessages, expires: PULL_EXPIRES_MS, abort_on_missing_resource: true }), false);
}

/**
 * Follows the stored messages of `filter` on `stream` through an ephemeral, in-memory consumer that the server
 * removes once idle (an ordered consumer with a subject filter needs nats-server 2.10+). Messages are acked as they
 * are read.
 */
export async function followStream(conn: Pick<Connection, 'js' | 'jsm'>, s: StreamFollow): Promise<Follow<JsMsg>> {
  const ci = await conn.jsm.consumers.add(s.stream, { ack_policy: AckPolicy.Explicit, filter_subject: s.filter, inactive_threshold: 30e9, mem_storage: true, ...startOf(s.from) });
  return fromConsumer(await conn.js.consumers.getConsumerFromInfo(ci).consume({ max_messages: s.maxMessages ?? 256, expires: PULL_EXPIRES_MS }), true);
}

/**
 * Follows a whole stream through an ordered consumer: nothing to ack, and the client recreates it past a gap, so a
 * reader that falls behind is paced instead of cut off. For transient streams that every reader reads in full (the
 * learner group's contributions); the role needs the named consumer create (`reads.ordered` in permissions.ts).
 */
export async function followOrdered(conn: Pick<Connection, 'js'>, o: OrderedFollow): Promise<Follow<JsMsg>> {
  const consumer = await conn.js.consumers.get(o.stream, startOf(o.from));
  return fromConsumer(await consumer.consume({ max_messages: o.maxMessages }), false);
}

/** Follows a KV bucket (or one key of it): its current values first, then every change. */
export async function followKv(kv: KV, key?: string): Promise<Follow<KvWatchEntry>> {
  const iter = await kv.watch(key === undefined ? {} : { key });
  return fromIterator(iter, async () => iter.stop(), undefined);
}

function startOf(from: FollowFrom): { deliver_policy: DeliverPolicy; opt_start_time?: string } {
  if (from === 'all') return { deliver_policy: DeliverPolicy.All };
  if (from === 'new') return { deliver_policy: DeliverPolicy.New };
  return { deliver_policy: DeliverPolicy.StartTime, opt_start_time: from.since.toISOString() };
}

function fromConsumer(msgs: ConsumerMessages, autoAck: boolean): Follow<JsMsg> {
  return fromIterator(msgs, async () => void (await msgs.close().catch(() => undefined)), msgs.status(), autoAck ? (m) => m.ack() : undefined);
}

function fromIterator<T>(iter: QueuedIterator<T>, stop: () => Promise<void>, notes: AsyncIterable<ConsumerNotification> | undefined, each?: (v: T) => void): Follow<T> {
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => (closed ??= stop());
  const listeners = new Set<(s: FollowStatus) => void>();
  const emit = (s: FollowStatus): void => listeners.forEach((f) => f(s));
  if (notes) void (async () => { for await (const n of notes) emit(n); })().catch(() => undefined);
  let used = false;
  async function* data(): AsyncGenerator<T> {
    if (used) throw new TypeError('a follow can be iterated once');
    used = true;
    let error: Error | undefined;
    try {
      for await (const v of iter as AsyncIterable<T>) {
        each?.(v);
        yield v;
      }
    } catch (err) {
      error = err as Error;
      throw err;
    } finally {
      await close();
      emit(error ? { type: 'ended', error } : { type: 'ended' });
      listeners.clear();
    }
  }
  return {
    [Symbol.asyncIterator]: () => data(),
    close,
    status: () => statusIterator(listeners),
  };
}

/** An iterator over the status events emitted from now on; it ends with the `ended` event. */
async function* statusIterator(listeners: Set<(s: FollowStatus) => void>): AsyncGenerator<FollowStatus> {
  const queue: FollowStatus[] = [];
  let wake: (() => void) | null = null;
  const push = (s: FollowStatus): void => (queue.push(s), wake?.());
  listeners.add(push);
  try {
    for (;;) {
      while (queue.length > 0) {
        const s = queue.shift()!;
        yield s;
        if (s.type === 'ended') return;
      }
      await new Promise<void>((r) => (wake = r));
      wake = null;
    }
  } finally {
    listeners.delete(push);
  }
}
