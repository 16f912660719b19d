// What an actor is, independent of the host that drives it: a role, an optional work-queue input
// with its message type, a handler that turns one input into outputs, and optional start/stop hooks
// for roles that serve request/reply or run their own loops. A handler may hold its message past its
// return (a deferred ack, settled by a later effect of the actor's logic); the host keeps held messages
// alive, redelivers and dead-letters, and drains, so no actor runs a consume loop of its own.
// A contract of types only: it imports types from the layers below it (connection, follow, the topology's
// declarations, messages) and nothing that drives actors (host, pull, subscriptions), so those can all import it.
import type { KvWatchEntry } from '@nats-io/kv';
import type { ClusterConfig, RoleConfig } from './config-schema.js';
import type { Connection } from './connection.js';
import type { FollowFrom } from './follow.js';
import type { MessageType } from './messages.js';
import type { ConsumerDecl } from './topology-decls.js';

/** A message the host publishes (durably, with Nats-Msg-Id) before it acks the input. */
export interface ActorOutput {
  subject: string;
  type: MessageType<any>;
  body: unknown;
  /** Deterministic per (input, output) so that a retried task is deduplicated by the stream. */
  msgId: string;
}

export interface HandlerContext {
  role: string;
  /** The message type of this input (an actor may have several inputs). */
  messageType: string;
  hostId: string;
  /** 1 on first delivery. */
  deliveryCount: number;
  streamSeq: number;
  subject: string;
  /** Aborted when the host drains or the task times out. */
  signal: AbortSignal;
  /** Extends the ack deadline (the host also does this periodically during long work). */
  working(): void;
  /**
   * Defers the ack past the handler's return: the host publishes the outputs, then keeps the message alive with
   * in-progress acks until the actor settles it (or nak's it when the host drains).
   */
  hold(): HeldMessage;
}

/** A message whose ack waits for a later effect of the actor (e.g. the learner's checkpoint). */
export interface HeldMessage {
  readonly streamSeq: number;
  /** Acks it (resolves once the server confirmed); further settles are no-ops. */
  ack(): Promise<void>;
  /** Hands it back for redelivery now. */
  release(): void;
  /** Stops keeping it alive, as a crash would: the server redelivers it after ack_wait. */
  abandon(): void;
}

export interface ActorEnv {
  role: string;
  hostId: string;
  config: ClusterConfig;
  roleConfig: RoleConfig;
  conn: Connection;
  log(line: string): void;
  /** Asks the host process to drain and exit (e.g. the run reached its iteration or time budget). */
  requestShutdown(reason: string): void;
  /**
   * Starts pulling a work-queue input now, through handle() and the role's concurrency, for actors that may only
   * consume once ready (the learner once it holds its lock). `input` and `extraInputs` are pulled after start().
   */
  pull(input: ActorInput<any>): Promise<Pulling>;
}

/** An input pulled on request (ActorEnv.pull). */
export interface Pulling {
  /** Stops pulling it (e.g. the learner crashed for good); what was delivered and not handled comes back after ack_wait. */
  close(): Promise<void>;
}

export interface ActorInput<In> {
  consumer: ConsumerDecl;
  type: MessageType<In>;
  /** Messages the server may push ahead of the handlers (default: the role's concurrency). */
  pullBatch?: number;
  /**
   * On drain, keep pulling (at most this long) until the consumer has nothing undelivered and every delivered
   * message reached handle(): a bounded run takes in what the server already holds for it (default 0: stop at once).
   */
  takeDeliveredOnDrainMs?: number | (() => number);
}

export interface Actor<In = any> {
  role: string;
  /** Work-queue input; absent for actors that only use start/stop. */
  input?: ActorInput<In>;
  /** Further inputs on other streams, handled by the same handler and concurrency limit. */
  extraInputs?: ActorInput<any>[];
  handle?(input: In, ctx: HandlerContext): Promise<ActorOutput[]>;
  /** Streams, KV keys and core subjects the host follows for the actor, from after start() until it drains. */
  subscriptions?: ActorSubscription[];
  start?(env: ActorEnv): Promise<void>;
  /** Stop accepting work and finish in-flight work (bounded by the drain timeout). */
  stop?(): Promise<void>;
}

/** What a stream or core subscription hands the actor. */
export interface Delivered {
  subject: string;
  data: Uint8Array;
  /** The stream sequence (stream subscriptions only). */
  seq?: number;
}

/** A subscription the host keeps for the actor (Actor.subscriptions), opened by subscriptions.ts. */
export type ActorSubscription =
  | { kind: 'stream'; stream: string; filter: string; from: FollowFrom; onMessage(m: Delivered): void | Promise<void> }
  | { kind: 'kv'; bucket: string; key?: string; onEntry(e: KvWatchEntry): void | Promise<void> }
  | { kind: 'core'; subject: string; onMessage(m: Delivered): void };

export type ActorFactory = (env: ActorEnv) => Actor | Promise<Actor>;
