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
