// The actor host: starts actors, pulls their work with N concurrent handlers, publishes results
// durably before acking, keeps long work alive with in-progress acks, retries with backoff up to
// max_deliver and then dead-letters, beats in the membership bucket, and drains on stop.
import { setMaxListeners } from 'node:events';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { Actor, ActorEnv, ActorInput, ActorOutput, HandlerContext } from './actor.js';
import type { ClusterConfig } from './config-schema.js';
import type { Connection } from './connection.js';
import { publishDeadLetter } from './dead-letter.js';
import { HostError, isMessageError, isPermanentError } from './errors.js';
import { Membership } from './membership.js';
import { decode, encode } from './messages.js';
import { Semaphore } from './semaphore.js';
import { durableName } from './subjects.js';

export interface HostStats {
  handled: number;
  failed: number;
  deadLettered: number;
  naked: number;
}

interface InFlight {
  ac: AbortController;
  startedAt: number;
  lastWorking: number;
}

interface Running {
  actor: Actor;
  env: ActorEnv;
  slots: Semaphore;
  pulls: Array<{ messages: ConsumerMessages; loop: Promise<void> }>;
  inflight: Map<JsMsg, InFlight>;
  sweeper?: NodeJS.Timeout;
  abandoned: WeakSet<JsMsg>;
}

export interface ActorHostOptions {
  conn: Connection;
  config: ClusterConfig;
  hostId: string;
  log?: (line: string) => void;
  /** Called when an actor asks the process to stop. */
  onShutdownRequest?: (reason: string) => void;
}

export class ActorHost {
  readonly stats: HostStats = { handled: 0, failed: 0, deadLettered: 0, naked: 0 };
  private readonly running: Running[] = [];
  private membership: Membership | undefined;
  private draining = false;
  private readonly log: (line: string) => void;

  constructor(private readonly opts: ActorHostOptions) {
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
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
      const env: ActorEnv = {
        role,
        hostId,
        config,
        roleConfig,
        conn,
        log: (l) => this.log(`[${role}] ${l}`),
        requestShutdown: (reason) => this.opts.onShutdownRequest?.(`${role}: ${reason}`),
      };
      const actor = await factory(env);
      const r: Running = { actor, env, slots: new Semaphore(roleConfig.concurrency), inflight: new Map(), abandoned: new WeakSet(), pulls: [] };
      await actor.start?.(env);
      const inputs = [...(actor.input ? [actor.input] : []), ...(actor.extraInputs ?? [])];
      if (inputs.length > 0 && actor.handle) {
        for (const input of inputs) {
          const pull = { messages: await this.consume(input, roleConfig.concurrency), loop: Promise.resolve() };
          pull.loop = this.keepPulling(r, pull, input);
          r.pulls.push(pull);
        }
        // One timer per actor, not two per message: in-progress acks for long work and task timeouts.
        r.sweeper = setInterval(() => this.sweep(r), Math.max(100, Math.min(1_000, Math.floor(config.delivery.ackWaitMs / 3))));
        r.sweeper.unref();
      }
      this.running.push(r);
    }
    this.membership = new Membership(conn, hostId, roles, config.host.heartbeatMs, () => ({
      ...this.stats,
      inflight: this.running.reduce((n, r) => n + r.slots.inUse, 0),
      draining: this.draining,
    }));
    await this.membership.start();
  }

  private async consume(input: ActorInput<unknown>, concurrency: number): Promise<ConsumerMessages> {
    const consumer = await this.opts.conn.js.consumers.get(input.consumer.stream, durableName(input.consumer.role));
    return consumer.consume({ max_messages: concurrency, expires: 30_000, abort_on_missing_resource: true });
  }

  /** Pulls until the host drains; if the subscription fails (consumer deleted, server gone) it is re-created. */
  private async keepPulling(r: Running, pull: { messages: ConsumerMessages }, input: ActorInput<unknown>): Promise<void> {
    // Retries every second, but says so once per distinct failure (and once a minute), not once a second.
    let last = '';
    let lastAt = 0;
    const say = (line: string) => {
      if (line === last && Date.now() - lastAt < 60_000) return;
      last = line;
      lastAt = Date.now();
      this.log(`[${r.env.role}] ${line}`);
    };
    for (;;) {
      try {
        await this.pull(r, pull.messages, input);
      } catch (err) {
        if (this.draining) return;
        say(`pulling from ${input.consumer.stream} failed (${(err as Error).message}); re-subscribing every second`);
      }
      if (this.draining) return;
      await new Promise((res) => setTimeout(res, 1_000));
      if (this.draining) return;
      try {
        pull.messages = await this.consume(input, r.env.roleConfig.concurrency);
        if (last) say(`re-subscribed to ${input.consumer.stream}`);
      } catch (err) {
        say(`cannot re-subscribe to ${input.consumer.stream}: ${(err as Error).message}`);
      }
    }
  }

  private async pull(r: Running, messages: ConsumerMessages, input: ActorInput<unknown>): Promise<void> {
    for await (const msg of messages) {
      await r.slots.acquire();
      if (this.draining) {
        msg.nak();
        this.stats.naked++;
        r.slots.release();
        continue;
      }
      void this.process(r, msg, input).finally(() => r.slots.release());
    }
  }

  private async process(r: Running, msg: JsMsg, inputDecl: ActorInput<unknown>): Promise<void> {
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
    };
    try {
      const outputs = await r.actor.handle!(input, ctx);
      await this.publishAll(outputs);
      if (r.abandoned.has(msg)) return;
      msg.ack();
      this.stats.handled++;
    } catch (err) {
      if (r.abandoned.has(msg)) return;
      this.stats.failed++;
      if (this.draining && ac.signal.aborted) {
        msg.nak();
        this.stats.naked++;
      } else if (isPermanentError(err)) {
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

  /** Sends in-progress acks for work older than a third of ack_wait and aborts work past its timeout. */
  private sweep(r: Running): void {
    const now = Date.now();
    const every = this.opts.config.delivery.ackWaitMs / 3;
    const limit = r.env.roleConfig.taskTimeoutMs;
    for (const [msg, f] of r.inflight) {
      if (now - f.lastWorking >= every) {
        msg.working();
        f.lastWorking = now;
      }
      if (now - f.startedAt > limit && !f.ac.signal.aborted)
        f.ac.abort(new HostError(`task exceeded roles.${r.env.role}.taskTimeoutMs (${limit} ms)`, { role: r.env.role, subject: msg.subject, streamSeq: msg.info.streamSequence }));
    }
  }

  private async publishAll(outputs: ActorOutput[]): Promise<void> {
    const { js } = this.opts.conn;
    await Promise.all(outputs.map((o) => js.publish(o.subject, encode(o.type, o.body), { msgID: o.msgId })));
  }

  private async deadLetter(r: Running, msg: JsMsg, reason: string, code: string): Promise<void> {
    try {
      await publishDeadLetter(this.opts.conn.js, msg, { role: r.env.role, host: this.opts.hostId, reason, code });
      // Acked, not term'ed: the dead-letter record now holds the bytes, and a work queue drops acked messages.
      msg.ack();
      this.stats.deadLettered++;
      this.log(`[${r.env.role}] dead-lettered ${msg.subject}#${msg.info.streamSequence}: ${reason}`);
    } catch (err) {
      // Could not record it: leave it to be redelivered rather than lose it.
      msg.nak(1_000);
      this.log(`[${r.env.role}] cannot dead-letter ${msg.subject}#${msg.info.streamSequence} (${(err as Error).message}); will retry`);
    }
  }

  /** Graceful drain: stop pulling, let in-flight work finish up to the drain timeout, nak the rest. */
  async stop(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    for (const r of this.running) for (const p of r.pulls) await p.messages.close().catch(() => undefined);
    const deadline = this.opts.config.host.drainTimeoutMs;
    const allIdle = Promise.all(this.running.map((r) => r.slots.idle()));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([allIdle.then(() => false), new Promise<boolean>((res) => (timer = setTimeout(() => res(true), deadline)))]);
    clearTimeout(timer);
    if (timedOut) {
      // Handlers that ignore the abort signal are abandoned: their work goes back to the queue now.
      for (const r of this.running)
        for (const [msg, { ac }] of r.inflight) {
          r.abandoned.add(msg);
          ac.abort(new HostError('host is draining', { role: r.env.role }));
          msg.nak();
          this.stats.naked++;
        }
    }
    for (const r of this.running) clearInterval(r.sweeper);
    for (const r of this.running) if (!timedOut) for (const p of r.pulls) await p.loop.catch(() => undefined);
    for (const r of this.running) await r.actor.stop?.().catch((err: Error) => this.log(`[${r.env.role}] stop failed: ${err.message}`));
    await this.membership?.stop();
  }
}
