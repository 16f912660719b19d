// One input an actor pulls (a durable consumer through follow()), with the messages the actor holds from it, and
// the drain's wait for what the server already delivered.
import type { JsMsg } from '@nats-io/jetstream';
import type { ActorInput } from './actor.js';
import type { Connection } from './connection.js';
import type { Follow } from './follow.js';
import type { Held } from './held-message.js';
import { durableName } from './subjects.js';

export interface Pull {
  input: ActorInput<unknown>;
  messages: Follow<JsMsg>;
  loop: Promise<void>;
  /** Messages handled and held by the actor (HandlerContext.hold()), not settled yet. */
  held: Set<Held>;
  /** Handler failures (a failure while draining ends takeDelivered: the actor cannot take more). */
  failures: number;
  /** Closed by the actor (Pulling.close()): not re-subscribed. */
  closed: boolean;
}

/** On drain, until the consumer delivered everything and the actor holds every delivered message (bounded). */
export async function takeDelivered(conn: Pick<Connection, 'jsm'>, pull: Pull): Promise<void> {
  const take = pull.input.takeDeliveredOnDrainMs ?? 0;
  const ms = pull.closed ? 0 : typeof take === 'function' ? take() : take;
  const { stream, role } = pull.input.consumer;
  const end = Date.now() + ms;
  const failures = pull.failures;
  while (Date.now() < end && pull.failures === failures) {
    const info = await conn.jsm.consumers.info(stream, durableName(role)).catch(() => null);
    if (info === null || (info.num_pending === 0 && info.num_ack_pending <= pull.held.size)) return;
    await new Promise((res) => setTimeout(res, 25));
  }
}
