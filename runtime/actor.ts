// What an actor is, independent of the host that drives it: a role, an optional work-queue input
// with its message type, a handler that turns one input into outputs, and optional start/stop hooks
// for roles that serve request/reply or run their own loops.
import type { ClusterConfig, RoleConfig } from './config-schema.js';
import type { Connection } from './connection.js';
import type { ConsumerDecl } from './topology.js';
import type { MessageType } from './messages.js';

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
}

export interface ActorInput<In> {
  consumer: ConsumerDecl;
  type: MessageType<In>;
}

export interface Actor<In = any> {
  role: string;
  /** Work-queue input; absent for actors that only use start/stop. */
  input?: ActorInput<In>;
  /** Further inputs on other streams, handled by the same handler and concurrency limit. */
  extraInputs?: ActorInput<any>[];
  handle?(input: In, ctx: HandlerContext): Promise<ActorOutput[]>;
  start?(env: ActorEnv): Promise<void>;
  /** Stop accepting work and finish in-flight work (bounded by the drain timeout). */
  stop?(): Promise<void>;
}

export type ActorFactory = (env: ActorEnv) => Actor | Promise<Actor>;
