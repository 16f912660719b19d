// Publishes a dead-letter record (reason + original bytes) for a message that will not be processed.
import type { JsMsg, JetStreamClient } from '@nats-io/jetstream';
import { DeadLetter } from './message-types.js';
import { encode } from './messages.js';
import { SUBJECTS } from './subjects.js';

export interface DeadLetterInfo {
  role: string;
  host: string;
  reason: string;
  code: string;
}

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
