// What the actor host keeps for each actor it runs, and the sweep that keeps that actor's leases: in-progress acks
// for long work and held messages (so ack_wait does not hand them to another host), and aborting work past its task
// timeout. One timer per actor, not two per message.
import type { JsMsg } from '@nats-io/jetstream';
import type { Actor, ActorEnv } from './actor.js';
import { HostError } from './errors.js';
import type { Pull } from './pull.js';
import type { Semaphore } from './semaphore.js';
import type { OpenSubscriptions } from './subscriptions.js';

export interface HostStats {
  handled: number;
  failed: number;
  deadLettered: number;
  naked: number;
  /** Times the host stopped pulling for being over host.memoryBudgetMb. */
  sheds: number;
}

/** One message being handled. */
export interface InFlight {
  ac: AbortController;
  startedAt: number;
  lastWorking: number;
}

/** One actor on the host: its inputs' pulls, the messages in flight and its subscriptions. */
export interface Running {
  actor: Actor;
  env: ActorEnv;
  slots: Semaphore;
  pulls: Pull[];
  inflight: Map<JsMsg, InFlight>;
  sweeper?: NodeJS.Timeout;
  abandoned: WeakSet<JsMsg>;
  subscriptions?: OpenSubscriptions;
}

/** How often the sweep runs: a third of ack_wait, within 100 ms .. 1 s. */
export const sweepEveryMs = (ackWaitMs: number): number => Math.max(100, Math.min(1_000, Math.floor(ackWaitMs / 3)));

/** Sends in-progress acks for work and held messages older than a third of ack_wait and aborts work past its timeout. */
export function sweep(r: Running, ackWaitMs: number): void {
  const now = Date.now();
  const every = ackWaitMs / 3;
  const limit = r.env.roleConfig.taskTimeoutMs;
  for (const p of r.pulls) for (const h of p.held) h.keepAlive(now, every);
  for (const [msg, f] of r.inflight) {
    if (now - f.lastWorking >= every) {
      msg.working();
      f.lastWorking = now;
    }
    if (now - f.startedAt > limit && !f.ac.signal.aborted)
      f.ac.abort(new HostError(`task exceeded roles.${r.env.role}.taskTimeoutMs (${limit} ms)`, { role: r.env.role, subject: msg.subject, streamSeq: msg.info.streamSequence }));
  }
}

/** Drain timeout: handlers that ignore the abort signal are abandoned, their messages nak'ed back to the queue now. Returns how many. */
export function abandonInflight(r: Running): number {
  let n = 0;
  for (const [msg, { ac }] of r.inflight) {
    r.abandoned.add(msg);
    ac.abort(new HostError('host is draining', { role: r.env.role }));
    msg.nak();
    n++;
  }
  return n;
}
