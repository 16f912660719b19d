// Test helper: an actor on the echo work queue that holds every message it is handed (HandlerContext.hold()) and
// reports the handle, so a test can settle it later; a promise of the next held message; and a whole setup (server,
// host, holder) that has already been handed one job.
import { EventEmitter, once } from 'node:events';
import type { Actor, HeldMessage } from '../../runtime/actor.js';
import type { Connection } from '../../runtime/connection.js';
import { ActorHost } from '../../runtime/host.js';
import { EchoJob } from '../../runtime/message-types.js';
import { CONSUMER_DECLS } from '../../runtime/topology-decls.js';
import { connected, natsServer, testConfig, type Teardown } from './nats.js';
import { publishJobs } from './results.js';

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

export interface HoldingSetup {
  conn: Connection;
  host: ActorHost;
  actor: ReturnType<typeof holderActor>;
  /** The first delivery of job 'j', held. */
  first: HeldJob;
}

/** A fresh nats-server with ack_wait 1 s, an ActorHost running a holder, and job 'j' published and held once. */
export async function holdOneJob(t: Teardown, hostId: string): Promise<HoldingSetup> {
  const server = await natsServer(t);
  const config = await testConfig([server.url], ['delivery.ackWaitMs=1000']);
  const conn = await connected(t, config);
  const actor = holderActor();
  const host = new ActorHost({ conn, config, hostId, log: () => undefined });
  await host.start([() => actor], ['echo']);
  t.teardown(() => host.stop());
  const next = actor.next();
  await publishJobs(conn, ['j']);
  return { conn, host, actor, first: await next };
}
