// Request/reply messages of the sandbox actor (core NATS, queue group): validate, reset, step.
import { defineMessage, type BodyOf } from '../../runtime/messages.js';
import * as s from '../../runtime/schema.js';

export const SandboxRequest = defineMessage(
  'sandbox.request',
  1,
  s.object({
    op: s.literal('validate', 'reset', 'step'),
    /** The module source; may be omitted after the serving host has seen its hash (else it answers SandboxCodeMissing). */
    code: s.optional(s.string({ max: 1 << 20 })),
    codeHash: s.optional(s.string({ pattern: /^[0-9a-f]{64}$/ })),
    seed: s.optional(s.int({ min: 0, max: 2 ** 32 - 1 })),
    actions: s.optional(s.array(s.string({ max: 1 << 16 }), { max: 256 })),
    episodeId: s.optional(s.string({ min: 1, max: 200 })),
    /** validate: seeds per stage. */
    seeds: s.optional(s.int({ min: 1, max: 64 })),
  }),
);

export const SandboxReply = defineMessage(
  'sandbox.reply',
  1,
  s.object({
    ok: s.boolean(),
    /** The pool's result (ValidationReport, ResetResult or StepResult) when ok. */
    value: s.optional(s.unknownValue()),
    /** A typed sandbox/environment error on the wire when not ok. */
    error: s.optional(s.object({ name: s.string(), message: s.string(), code: s.optional(s.string()), stage: s.optional(s.string()), value: s.optional(s.string()), turn: s.optional(s.int()), data: s.optional(s.unknownValue()) })),
    /** The host that served it: the client sends the episode's next steps there (affinity). */
    host: s.string(),
  }),
);

export type SandboxRequestBody = BodyOf<typeof SandboxRequest>;
export type SandboxReplyBody = BodyOf<typeof SandboxReply>;
