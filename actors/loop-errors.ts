// Typed errors of the self-play loop's designer, agent, policy service and environment memory.
import { SpadeError } from '../runtime/spade-error.js';

export class LoopError extends SpadeError {}

/** A LoopOptions field is invalid; `field` is its dotted path under `loop` (e.g. `loop.agent.maxTokens`). */
export class LoopOptionsError extends LoopError {
  constructor(readonly field: string, expected: string, value: unknown) {
    super(`${field} must be ${expected} (got ${JSON.stringify(value) ?? String(value)})`, { code: 'LOOP_OPTIONS', data: { field } });
  }
}

/** The policy service could not load or build its model, or was used after close(). */
export class PolicyError extends LoopError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'POLICY', data, cause });
  }
}

/** Reading or writing the environment memory (KV bucket) failed, or an entry there is malformed. */
export class MemoryError extends LoopError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'ENV_MEMORY', data, cause });
  }
}

/** A prompt cannot fit the model's context even with memory dropped and the document cut. */
export class PromptTooLongError extends LoopError {
  constructor(readonly role: 'designer' | 'agent', tokens: number, limit: number) {
    super(`${role} prompt needs ${tokens} tokens, the context allows ${limit}`, { code: 'PROMPT_TOO_LONG', data: { role, tokens, limit } });
  }
}

export const isLoopError = (e: unknown): e is LoopError => e instanceof LoopError;
export const isLoopOptionsError = (e: unknown): e is LoopOptionsError => e instanceof LoopOptionsError;
export const isPolicyError = (e: unknown): e is PolicyError => e instanceof PolicyError;
export const isMemoryError = (e: unknown): e is MemoryError => e instanceof MemoryError;
