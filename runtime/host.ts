// The actor host: starts actors, pulls their work with N concurrent handlers, publishes results
// durably before acking, keeps long work and held messages alive with in-progress acks, retries with
// backoff up to max_deliver and then dead-letters, beats in the membership bucket, sheds new work while over its
// memory budget (host-memory-budget.ts), and drains on stop. Per-actor state and the lease sweep are in host-running.ts.
import { setMaxListeners } from 'node:events';
import type { JsMsg } from '@nats-io/jetstream';
import type { Actor, ActorEnv, ActorInput, HandlerContext, Pulling } from './actor.js';
import type { ClusterConfig } from './config-schema.js';
import { asPermissionError, type Connection } from './connection.js';
import { deadLetterLogged } from './dead-letter.js';
import { HostError, isMessageError, isPermanentError, isPermissionError } from './errors.js';
import { followDurable, type Follow } from './follow.js';
import { Held, type Settled } from './held-message.js';
import { sayOnce } from './log.js';
import { takeDelivered, type Pull } from './pull.js';
import { untilAnswered } from './jetstream-retry.js';
import { Membership } from './membership.js';
import { hostMemoryGate } from './host-memory-budget.js';
import { HostProfilePublisher, heartbeatCpu } from './host-profile.js';
import { abandonInflight, sweep, sweepEveryMs, type HostStats, type Running } from './host-running.js';
import { delay } from './delay.js';
import type { MemoryGate } from './memory-gate.js';
import { decode } from './messages.js';
import { publishOutputs } from './publish.js';
import { Semaphore } from './semaphore.js';
import { openSubscriptions } from './subscriptions.js';
import { durableName } from './subjects.js';

export interface ActorHostOptions {
  /** The host's connection: membership, and every role's unless `connFor` gives it its own. */
  conn: Connection;
  /** One connection per role (per-role NATS users, runtime/permissions.ts): the actor's env.conn and its pulls, outputs and dead letters. */
  connFor?: (role: string) => Connection;
  config: ClusterConfig;
  hostId: string;
  log?: (line: string) => void;
  /** Called when an actor asks the process to stop. */
  onShutdownRequest?: (reason: string) => void;
  /** Where the memory budget's readings come from (process.memoryUsage.rss by default); tests hand in their own numbers. */
  readRss?: () => number;
}

export type { HostStats } from './host-running.js';

export class ActorHost {
  readonly stats: HostStats = { handled: 0, failed: 0, deadLettered: 0, naked: 0, sheds: 0 };
  private readonly running: Running[] = [];
  private membership: Membership | undefined;
  private draining = false;
  private stopping = false;
  /** Aborted by stop(): ends a start that is still retrying to open a subscription. */
  private readonly halt = new AbortController();
  private readonly log: (line: string) => void;
  /** Null when host.memoryBudgetMb is 0. */
  private readonly gate: MemoryGate | null;
  private readonly profile: HostProfilePublisher;

  constructor(private readonly opts: ActorHostOptions) {
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.gate = hostMemoryGate({
      config: opts.config, hostId: opts.hostId, log: this.log, ...(opts.readRss ? { readRss: opts.readRss } : {}),
      closePulls: () => {
        for (const r of this.running) for (const p of r.pulls) void p.messages.close().catch(() => undefined);
      },
      publisher: () => this.publisher(),
      onShed: () => void this.stats.sheds++,
    });
    this.profile = new HostProfilePublisher({
      hostId: opts.hostId, everyMs: opts.config.host.profileEveryMs, log: this.log, publisher: () => this.publisher(),
    });
  }

  /** The first running role publishes the host's metrics (with per-role users, a role may publish only its own metrics subject). */
  private publisher(): { conn: Connection; role: string } {
    return this.running[0] ? { conn: this.running[0].env.conn, role: this.running[0].env.role } : { conn: this.opts.conn, role: 'host' };
  }

  /** Whether the host has stopped pulling new jobs for being over its memory budget. */
  get shedding(): boolean {
    return this.gate?.shedding ?? false;
  }

  get hostId(): string {
    return this.opts.hostId;
  }

  /** Starts every actor; each role's concurrency comes from config.roles[role]. */
  async start(actors: Array<(env: ActorEnv) => Actor | Promise<Actor>>, roles: string[]): Promise<void> {
    const { conn, config, hostId } = this.opts;
    for (const [i, factory] of actors.entries()) {
      const role = roles[i]!;
      const roleConfig = config.roles[role];
      if (!roleConfig) throw new HostError(`role ${role} has no entry in config.roles`, { role });
      let running: Running | undefined;
      const env: ActorEnv = {
        role,
        hostId,
        config,
        roleConfig,
        conn: this.opts.connFor?.(role) ?? conn,
        log: (l) => this.log(`[${role}] ${l}`),
        requestShutdown: (reason) => this.opts.onShutdownRequest?.(`${role}: ${reason}`),
        pull: async (input) => {
          if (!running) throw new HostError(`roles.${role}: pull() called before the actor was created`, { role });
          return this.openInput(running, input);
        },
      };
      const actor = await factory(env);
      const r: Running = (running = { actor, env, slots: new Semaphore(roleConfig.concurrency), inflight: new Map(), abandoned: new WeakSet(), pulls: [] });
      this.running.push(r);
      await actor.start?.(env);
      for (const input of [...(actor.input ? [actor.input] : []), ...(actor.extraInputs ?? [])]) await this.openInput(r, input);
      if (actor.subscriptions?.length) r.subscriptions = await openSubscriptions(env.conn, actor.subscriptions, env.log, { signal: this.halt.signal });
    }
    if (this.stopping) throw new HostError(`host ${hostId} was stopped while it started`, { stopped: true });
    this.profile.start();
    this.membership = new Membership(conn, hostId, roles, config.host.heartbeatMs, () => ({
      ...this.stats,
      inflight: this.running.reduce((n, r) => n + r.slots.inUse, 0),
      draining: this.draining,
      rssMb: (this.opts.readRss?.() ?? process.memoryUsage.rss()) / 2 ** 20,
      shedding: this.shedding,
      cpuSec: heartbeatCpu(),
    }));
    const membership = this.membership;
    await untilAnswered(`host ${hostId}: first heartbeat`, () => membership.start(), this.log, { signal: this.halt.signal });
    this.gate?.start();
  }

  private async openInput(r: Running, input: ActorInput<unknown>): Promise<Pulling> {
    if (!r.actor.handle) throw new HostError(`roles.${r.env.role}: an actor with inputs needs a handle()`, { role: r.env.role });
    const closed: Pulling = { close: async () => undefined };
    if (this.draining) return closed;
    const pull: Pull = { input, messages: await this.consume(r, input), loop: Promise.resolve(), held: new Set(), failures: 0, closed: false };
    if (this.shedding) void pull.messages.close(); // keepPulling subscribes again once the gate opens
    pull.loop = this.keepPulling(r, pull);
    r.pulls.push(pull);
    // One timer per actor (host-running.ts): in-progress acks for long work and held messages, and task timeouts.
    const { ackWaitMs } = this.opts.config.delivery;
    r.sweeper ??= setInterval(() => sweep(r, ackWaitMs), sweepEveryMs(ackWaitMs));
    r.sweeper.unref();
    return {
      close: async () => {
        pull.closed = true;
        await pull.messages.close();
      },
    };
  }

  private consume(r: Running, input: ActorInput<unknown>): Promise<Follow<JsMsg>> {
    const maxMessages = input.pullBatch ?? r.env.roleConfig.concurrency;
    return followDurable(r.env.conn, { stream: input.consumer.stream, durable: durableName(input.consumer.role), maxMessages });
  }

  /** Pulls until the host drains; if the subscription fails (consumer deleted, server gone) it is re-created. */
  private async keepPulling(r: Running, pull: Pull): Promise<void> {
    const { input } = pull;
    // Retries every second, but says so once per distinct failure (and once a minute), not once a second.
    const say = sayOnce((line) => this.log(`[${r.env.role}] ${line}`));
    for (;;) {
      try {
        await this.pull(r, pull);
      } catch (err) {
        if (this.draining || pull.closed) return;
        say(`pulling from ${input.consumer.stream} failed (${(err as Error).message}); re-subscribing every second`);
      }
      if (this.draining || pull.closed) return;
      // Shedding for memory: subscribe again once under the lower watermark (the gate closed the subscription).
      if (this.gate?.shedding) await this.gate.opened();
      else await new Promise((res) => setTimeout(res, 1_000));
      if (this.draining || pull.closed) return;
      try {
        pull.messages = await this.consume(r, input);
        if (this.shedding) void pull.messages.close(); // the gate closed while this subscribed
        if (say.said()) say(`re-subscribed to ${input.consumer.stream}`);
      } catch (err) {
        say(`cannot re-subscribe to ${input.consumer.stream}: ${(err as Error).message}`);
      }
    }
  }

  private async pull(r: Running, pull: Pull): Promise<void> {
    for await (const msg of pull.messages) {
      await r.slots.acquire();
      // Delivered before the gate closed the pull (or while a slot was busy): back to the stream for another host.
      if (this.draining || this.shedding) {
        msg.nak();
        this.stats.naked++;
        r.slots.release();
        continue;
      }
      void this.process(r, msg, pull).finally(() => r.slots.release());
    }
  }

  private async process(r: Running, msg: JsMsg, pull: Pull): Promise<void> {
    const inputDecl = pull.input;
    const { config } = this.opts;
    const { role } = r.env;
    const maxDeliver = config.delivery.maxDeliver;
    const n = msg.info.deliveryCount;
    const where = { role, subject: msg.subject, stream: msg.info.stream, streamSeq: msg.info.streamSequence };
    if (n > maxDeliver) return this.deadLetter(r, msg, `delivered ${n} times (max_deliver ${maxDeliver}); the handling host likely crashed each time`, 'MAX_DELIVER');

    let input: unknown;
    try {
      input = decode(inputDecl.type, msg.data, where);
    } catch (err) {
      const code = isMessageError(err) ? err.code : 'DECODE';
      return this.deadLetter(r, msg, (err as Error).message, code);
    }

    const ac = new AbortController();
    // One task's signal is shared by all its sub-operations (e.g. 2k concurrent episodes): no listener cap.
    setMaxListeners(0, ac.signal);
    const now = Date.now();
    r.inflight.set(msg, { ac, startedAt: now, lastWorking: now });
    const ctx: HandlerContext = {
      role,
      messageType: inputDecl.type.type,
      hostId: this.opts.hostId,
      deliveryCount: n,
      streamSeq: msg.info.streamSequence,
      subject: msg.subject,
      signal: ac.signal,
      working: () => msg.working(),
      hold: () => (held ??= new Held(msg, (h, how) => this.settled(pull, h, how))),
    };
    let held: Held | undefined;
    try {
      const outputs = await r.actor.handle!(input, ctx);
      await publishOutputs(r.env.conn.js, outputs, { retryMs: config.delivery.publishRetryMs, signal: ac.signal, log: (l) => this.log(`[${role}] ${l}`) });
      if (r.abandoned.has(msg)) return;
      if (held === undefined) {
        msg.ack();
        this.stats.handled++;
      } else if (held.state === 'handling') {
        held.state = 'held';
        pull.held.add(held);
      }
    } catch (caught) {
      // A refused publish will be refused again: it is dead-lettered at once, naming the role and the subject.
      const err = asPermissionError(caught, role);
      if (r.abandoned.has(msg) || held?.state === 'settled') return;
      if (held) held.state = 'settled';
      this.stats.failed++;
      pull.failures++;
      if (this.draining && ac.signal.aborted) {
        msg.nak();
        this.stats.naked++;
      } else if (isPermanentError(err) || isPermissionError(err)) {
        await this.deadLetter(r, msg, (err as Error).message, (err as { code: string }).code);
      } else if (n >= maxDeliver) {
        await this.deadLetter(r, msg, `failed on delivery ${n} of ${maxDeliver}: ${(err as Error).message}`, (err as { code?: string }).code ?? 'HANDLER_FAILED');
      } else {
        const backoff = config.delivery.backoffMs;
        msg.nak(backoff[Math.min(n - 1, backoff.length - 1)]);
        this.stats.naked++;
        this.log(`[${role}] ${msg.subject}#${msg.info.streamSequence} attempt ${n}/${maxDeliver} failed, retrying: ${(err as Error).message}`);
      }
    } finally {
      r.inflight.delete(msg);
    }
  }

  private settled(pull: Pull, h: Held, how: Settled): void {
    pull.held.delete(h);
    if (how === 'acked') this.stats.handled++;
    else if (how === 'released' || how === 'drained') this.stats.naked++;
  }

  private async deadLetter(r: Running, msg: JsMsg, reason: string, code: string): Promise<void> {
    const info = { role: r.env.role, host: this.opts.hostId, reason, code, maxPayload: r.env.conn.nc.info?.max_payload };
    await deadLetterLogged(r.env.conn.js, msg, info, this.log, () => void this.stats.deadLettered++);
  }

  /** Graceful drain: stop pulling, let in-flight work finish up to the drain timeout, nak the rest; held messages are nak'ed after the actors stopped. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.halt.abort(new HostError(`host ${this.opts.hostId} is stopping`));
    // A host shedding for memory takes nothing more, so it does not wait for the rest to be delivered either.
    if (!this.shedding) await Promise.all(this.running.flatMap((r) => r.pulls.map((p) => takeDelivered(r.env.conn, p))));
    this.draining = true;
    this.gate?.stop();
    for (const r of this.running) for (const p of r.pulls) await p.messages.close().catch(() => undefined);
    const idle = new AbortController(); // ends the drain timeout's wait once every handler is idle
    const allIdle = Promise.all(this.running.map((r) => r.slots.idle())).then(() => (idle.abort(), 'idle' as const));
    const timedOut = (await Promise.race([allIdle, delay('the drain', this.opts.config.host.drainTimeoutMs, idle.signal)])) === 'elapsed';
    if (timedOut) for (const r of this.running) this.stats.naked += abandonInflight(r);
    for (const r of this.running) if (!timedOut) for (const p of r.pulls) await p.loop.catch(() => undefined);
    for (const r of this.running) await r.subscriptions?.close();
    // Held messages stay alive while the actors stop (a learner's last checkpoint acks them), the rest go back.
    for (const r of this.running) await r.actor.stop?.().catch((err: Error) => this.log(`[${r.env.role}] stop failed: ${err.message}`));
    for (const r of this.running) for (const p of r.pulls) for (const h of [...p.held]) h.drain();
    for (const r of this.running) clearInterval(r.sweeper);
    await this.profile.stop(); // the final reading, with the actors' last work in it
    await this.membership?.stop();
  }
}
