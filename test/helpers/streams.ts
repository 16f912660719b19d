// Test helper: reads every stored message of a subject from a stream (ephemeral consumer, from the start).
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import type { Connection } from '../../runtime/connection.js';
import type { MessageType } from '../../runtime/messages.js';
import { decode } from '../../runtime/messages.js';

export async function readAll<T>(conn: Connection, stream: string, subject: string, type: MessageType<T>): Promise<T[]> {
  const ci = await conn.jsm.consumers.add(stream, { ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: subject, inactive_threshold: 30e9 });
  const out: T[] = [];
  if (ci.num_pending === 0) return out;
  const msgs = await conn.js.consumers.getConsumerFromInfo(ci).consume();
  for await (const m of msgs as AsyncIterable<JsMsg>) {
    m.ack();
    out.push(decode(type, m.data));
    if (out.length >= ci.num_pending) break;
  }
  await msgs.close();
  return out;
}

/** Waits until `want` messages of a subject are stored (from the stream start) and returns them. */
export async function readUntil<T>(conn: Connection, stream: string, subject: string, type: MessageType<T>, want: number): Promise<T[]> {
  // An ephemeral consumer from the stream start (nats-server 2.9 has no multi-filter ordered consumers).
  const ci = await conn.jsm.consumers.add(stream, { ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All, filter_subject: subject, inactive_threshold: 30e9 });
  const it = await conn.js.consumers.getConsumerFromInfo(ci).consume();
  const out: T[] = [];
  for await (const m of it) {
    out.push(decode(type, m.data));
    if (out.length >= want) break;
  }
  await conn.jsm.consumers.delete(stream, ci.name);
  return out;
}
