// Test helper: publishes echo jobs and collects echo results from the results stream.
import { AckPolicy, DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import type { Connection } from '../../runtime/connection.js';
import { EchoJob, EchoResult } from '../../runtime/message-types.js';
import { decode, encode } from '../../runtime/messages.js';
import { STREAMS, SUBJECTS } from '../../runtime/subjects.js';

export type Result = ReturnType<typeof decode<{ id: string; host: string; pid: number; deliveryCount: number; bytes: number }>>;

export async function publishJobs(conn: Connection, ids: string[], extra: { workMs?: number; failTimes?: number; bytes?: number } = {}): Promise<void> {
  const payload = new Uint8Array(extra.bytes ?? 16);
  await Promise.all(
    ids.map((id) =>
      conn.js.publish(SUBJECTS.jobEcho, encode(EchoJob, { id, payload, workMs: extra.workMs, failTimes: extra.failTimes }), { msgID: `job:${id}` }),
    ),
  );
}

/** Reads results until `want` distinct ids are seen (or the timeout); returns every result message read. */
export async function collectResults(conn: Connection, want: number, timeoutMs = 30_000): Promise<Result[]> {
  // Retried: right after a server loss the stream may still be electing a leader.
  let ci;
  for (let attempt = 1; ; attempt++) {
    try {
      ci = await conn.jsm.consumers.add(STREAMS.results, { ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: SUBJECTS.resultEcho, inactive_threshold: 30e9 });
      break;
    } catch (err) {
      if (attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const msgs = await conn.js.consumers.getConsumerFromInfo(ci).consume();
  const out: Result[] = [];
  const ids = new Set<string>();
  const timer = setTimeout(() => void msgs.close(), timeoutMs);
  for await (const m of msgs as AsyncIterable<JsMsg>) {
    m.ack();
    const r = decode(EchoResult, m.data);
    out.push(r);
    ids.add(r.id);
    if (ids.size >= want) break;
  }
  clearTimeout(timer);
  await msgs.close();
  return out;
}
