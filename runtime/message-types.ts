// The runtime's own message types: the test actor's job/result, dead letters, heartbeats, policy version, metrics.
import { defineMessage, type BodyOf } from './messages.js';
import * as s from './schema.js';

/** A unit of work for the runtime's `echo` test actor: optional simulated work time and deliberate failures. */
export const EchoJob = defineMessage(
  'echo.job',
  1,
  s.object({
    id: s.string({ min: 1, max: 200 }),
    payload: s.bytes(),
    workMs: s.optional(s.int({ min: 0 })),
    failTimes: s.optional(s.int({ min: 0 })),
    /** false = publish no result (measures the consume-and-ack path alone). */
    reply: s.optional(s.boolean()),
  }),
);

export const EchoResult = defineMessage(
  'echo.result',
  1,
  s.object({ id: s.string({ min: 1, max: 200 }), host: s.string(), pid: s.int(), deliveryCount: s.int({ min: 1 }), bytes: s.int({ min: 0 }) }),
);

/** What the host publishes when a message cannot be processed: the reason and the original bytes. */
export const DeadLetter = defineMessage(
  'dead-letter',
  1,
  s.object({
    reason: s.string(),
    code: s.string(),
    role: s.string(),
    stream: s.string(),
    consumer: s.string(),
    subject: s.string(),
    streamSeq: s.int({ min: 0 }),
    deliveryCount: s.int({ min: 0 }),
    host: s.string(),
    ts: s.number(),
    /** The message's bytes, or only their first bytes when the whole would not fit under the server's max_payload. */
    original: s.bytes(),
    /** Set when `original` is cut: the message's full length and the sha256 (hex) of all its bytes. */
    originalBytes: s.optional(s.int({ min: 0 })),
    originalSha256: s.optional(s.string()),
  }),
);

export const MemberHeartbeat = defineMessage(
  'member.heartbeat',
  1,
  s.object({
    hostId: s.string(),
    hostname: s.string(),
    pid: s.int(),
    roles: s.array(s.string()),
    startedAt: s.number(),
    ts: s.number(),
    inflight: s.int({ min: 0 }),
    handled: s.int({ min: 0 }),
    failed: s.int({ min: 0 }),
    deadLettered: s.int({ min: 0 }),
    eventLoopLagMs: s.number({ min: 0 }),
    draining: s.boolean(),
    /** Resident memory in MiB, and whether the host sheds work for being over host.memoryBudgetMb (runtime/memory-gate.ts). */
    rssMb: s.optional(s.number({ min: 0 })),
    shedding: s.optional(s.boolean()),
    /** CPU seconds of the host's process since it started: `all` (every thread) and each measured phase (runtime/work-profile.ts). */
    cpuSec: s.optional(s.record(s.number({ min: 0 }))),
  }),
);

export const PolicyVersion = defineMessage(
  'policy.version',
  1,
  s.object({
    version: s.int({ min: 0 }), object: s.string(), step: s.int({ min: 0 }), ts: s.number(), sha256: s.optional(s.string()),
    /** Size of the stored object, and a hash of the model config the weights belong to (see weight-sync/payload.ts). */
    bytes: s.optional(s.int({ min: 0 })), configHash: s.optional(s.string()),
  }),
);

export const Metric = defineMessage(
  'metric',
  1,
  s.object({ role: s.string(), host: s.string(), ts: s.number(), name: s.string(), value: s.number(), tags: s.optional(s.record(s.string())) }),
);

export type EchoJobBody = BodyOf<typeof EchoJob>;
export type MemberHeartbeatBody = BodyOf<typeof MemberHeartbeat>;
export type PolicyVersionBody = BodyOf<typeof PolicyVersion>;
export type MetricBody = BodyOf<typeof Metric>;

/** The runtime's own message types, in the order `spade tail` lists them. */
export const RUNTIME_MESSAGES = [EchoJob, EchoResult, DeadLetter, MemberHeartbeat, PolicyVersion, Metric] as const;
