// The subscriptions an actor declares (Actor.subscriptions) and the host keeps from after start() until it drains:
// stored subjects through an ephemeral consumer, a KV bucket or key, a core subject. Each delivers to its callback
// in order, one at a time; a callback that throws costs that message only (logged), never the subscription.
// Opening a stream or KV subscription that JetStream cannot answer yet (a cluster electing a stream leader after a
// server was lost: the request times out or finds no responder) is tried again every second, said once, rather than
// failing the host's start; any other failure (a refused permission, a missing stream) fails it at once.
import type { Subscription } from '@nats-io/transport-node';
import type { ActorSubscription } from './actor.js';
import type { Connection } from './connection.js';
import { followKv, followStream, type Follow } from './follow.js';
import { untilAnswered } from './jetstream-retry.js';

export interface OpenSubscriptions {
  /** Stops them all and waits until every callback in progress returned. */
  close(): Promise<void>;
}

export interface OpenSubscriptionsOptions {
  /** Between tries to open a subscription JetStream could not answer (default 1 000 ms). */
  retryMs?: number;
  /** Stops trying (the host is stopping): the open then fails with a HostError whose data says `stopped`. */
  signal?: AbortSignal;
}

export async function openSubscriptions(conn: Connection, subs: ActorSubscription[], log: (line: string) => void, o: OpenSubscriptionsOptions = {}): Promise<OpenSubscriptions> {
  const retry = <T>(what: string, open: () => Promise<T>) => untilAnswered(what, open, log, { everyMs: o.retryMs ?? 1_000, signal: o.signal, done: 'open' });
  const follows: Follow<unknown>[] = [];
  const loops: Promise<void>[] = [];
  const cores: Subscription[] = [];
  const run = <T>(f: Follow<T>, what: string, each: (v: T) => void | Promise<void>, name: (v: T) => string): void => {
    follows.push(f as Follow<unknown>);
    loops.push((async () => {
      for await (const v of f) {
        try {
          await each(v);
        } catch (err) {
          log(`skipping ${name(v)}: ${(err as Error).message}`);
        }
      }
    })().catch((err: Error) => log(`${what} ended: ${err.message}`)));
  };
  try {
    for (const s of subs) {
      if (s.kind === 'stream') {
        const f = await retry(`following ${s.filter} on ${s.stream}`, () => followStream(conn, { stream: s.stream, filter: s.filter, from: s.from }));
        run(f, `following ${s.filter} on ${s.stream}`, (m) => s.onMessage({ subject: m.subject, data: m.data, seq: m.seq }), (m) => `${m.subject}#${m.seq}`);
      } else if (s.kind === 'kv') {
        const f = await retry(`watching ${s.bucket}`, async () => followKv(await conn.kvm.open(s.bucket), s.key));
        run(f, `watching ${s.bucket}`, (e) => s.onEntry(e), (e) => `${s.bucket}/${e.key}@${e.revision}`);
      } else {
        cores.push(conn.nc.subscribe(s.subject, {
          callback: (err, m) => {
            if (err) return;
            try {
              s.onMessage({ subject: m.subject, data: m.data });
            } catch (e) {
              log(`skipping ${m.subject}: ${(e as Error).message}`);
            }
          },
        }));
      }
    }
  } catch (err) {
    await close();
    throw err;
  }
  async function close(): Promise<void> {
    for (const c of cores) c.unsubscribe();
    for (const f of follows) await f.close();
    await Promise.allSettled(loops);
  }
  return { close };
}
