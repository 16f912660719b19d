// Publishes a dead-letter record (reason + original bytes) for a message that will not be processed.
import { createHash } from 'node:crypto';
import type { JsMsg, JetStreamClient } from '@nats-io/jetstream';
import { DeadLetter } from './message-types.js';
import { encode } from './messages.js';
import { SUBJECTS } from './subjects.js';

export interface DeadLetterInfo {
  role: string;
  host: string;
  reason: string;
  code: string;
  /**
   * The server's max_payload: a record that would outgrow it keeps only the original's first bytes (with its length
   * and sha256), else it could never be written and the message would be retried forever, then stay unrecorded.
   */
  maxPayload?: number;
}

/** Room left in a record for headers (Nats-Msg-Id) and msgpack framing of the `original` field. */
const HEADROOM = 1024;

/** Durably records `msg` as dead; the id makes a repeated attempt for the same delivery a no-op. */
export async function publishDeadLetter(js: JetStreamClient, msg: JsMsg, info: DeadLetterInfo): Promise<void> {
  const body = {
    reason: info.reason.slice(0, 2000),
    code: info.code,
    role: info.role,
    stream: msg.info.stream,
    consumer: msg.info.consumer,
    subject: msg.subject,
    streamSeq: msg.info.streamSequence,
    deliveryCount: msg.info.deliveryCount,
    host: info.host,
    ts: Date.now(),
    original: msg.data,
  };
  if (info.maxPayload !== undefined) {
    const overhead = encode(DeadLetter, { ...body, original: new Uint8Array(0), originalBytes: msg.data.length, originalSha256: '0'.repeat(64) }).length;
    const room = Math.max(0, info.maxPayload - overhead - HEADROOM);
    if (msg.data.length > room)
      Object.assign(body, { original: msg.data.subarray(0, room), originalBytes: msg.data.length, originalSha256: createHash('sha256').update(msg.data).digest('hex') });
  }
  await js.publish(SUBJECTS.deadLetter(info.role), encode(DeadLetter, body), {
    msgID: `dlq:${msg.info.stream}:${msg.info.streamSequence}`,
  });
}

/**
 * Records `msg` as dead and acks it (not term: the record now holds the bytes, and a work queue drops acked
 * messages); returns false, with the message nak'ed for a retry, when the record could not be written.
 */
export async function deadLetterAndAck(js: JetStreamClient, msg: JsMsg, info: DeadLetterInfo): Promise<boolean> {
  try {
    await publishDeadLetter(js, msg, info);
    msg.ack();
    return true;
  } catch {
    // Could not record it: leave it to be redelivered rather than lose it.
    msg.nak(1_000);
    return false;
  }
}

/**
 * deadLetterAndAck for a host: `counted` runs as soon as the record is written and the message acked (before this
 * resolves, so a reader of the record finds it counted), and it says what happened
 * (`[role] dead-lettered <subject>#<seq>: <reason>`), or that it will be retried.
 */
export async function deadLetterLogged(js: JetStreamClient, msg: JsMsg, info: DeadLetterInfo, log: (line: string) => void, counted: () => void): Promise<void> {
  const where = `${msg.subject}#${msg.info.streamSequence}`;
  if (await deadLetterAndAck(js, msg, info)) {
    counted();
    log(`[${info.role}] dead-lettered ${where}: ${info.reason}`);
  } else log(`[${info.role}] cannot dead-letter ${where}; will retry`);
}
