// Typed errors of the self-play loop's designer, agent, policy service and environment memory.
// A bad LoopOptions field is an OptionsError (runtime/options.ts) naming its path under `loop`.
import { coded, guard, SpadeError } from '../../runtime/spade-error.js';

export class LoopError extends SpadeError {}

/** The policy service could not load or build its model, or was used after close(). */
export class PolicyError extends coded(LoopError, 'POLICY') {}

/** Reading or writing the environment memory (KV bucket) failed, or an entry there is malformed. */
export class MemoryError extends coded(LoopError, 'ENV_MEMORY') {}

/**
 * A design job's outcome record (BUCKETS.designOutcomes) could not be claimed or read back, or the one there is
 * malformed: the job publishes nothing and is retried (never published without a claim).
 */
export class DesignOutcomeError extends coded(LoopError, 'DESIGN_OUTCOME') {}

/** A prompt cannot fit the model's context even with memory dropped and the document cut. */
export class PromptTooLongError extends LoopError {
  constructor(readonly role: 'designer' | 'agent', tokens: number, limit: number) {
    super(`${role} prompt needs ${tokens} tokens, the context allows ${limit}`, { code: 'PROMPT_TOO_LONG', data: { role, tokens, limit } });
  }
}

export const isLoopError = guard(LoopError);
export const isPolicyError = guard(PolicyError);
export const isMemoryError = guard(MemoryError);
export const isDesignOutcomeError = guard(DesignOutcomeError);
