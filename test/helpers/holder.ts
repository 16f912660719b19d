// Test helper: an actor on the echo work queue that holds every message it is handed (HandlerContext.hold()) and
// reports the handle, so a test can settle it later; and a promise of the next held message.
import { EventEmitter, once } from 'node:events';
import type { Actor, HeldMessage } from '../../runtime/actor.js';
import { EchoJob } from '../../runtime/message-types.js';
import { CONSUMER_DECLS } from '../../runtime/topology.js';

export interface HeldJob {
  id: string;
  held: HeldMessage;
  deliveryCount: number;
}

export function holderActor(): Actor & { events: EventEmitter; next(): Promise<HeldJob> } {
  const events = new EventEmitter();
  return {
    role: 'echo',
    events,
    input: { consumer: CONSUMER_DECLS.find((c) => c.role === 'echo')!, type: EchoJob },
    async handle(job: { id: string }, ctx) {
      events.emit('held', { id: job.id, held: ctx.hold(), deliveryCount: ctx.deliveryCount } satisfies HeldJob);
      return [];
    },
    next: async () => ((await once(events, 'held')) as [HeldJob])[0],
  };
}
