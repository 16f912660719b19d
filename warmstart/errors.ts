// Typed errors of the warm start (supervised base-checkpoint training and the designer evaluation).
// A bad option is an OptionsError (runtime/options.ts).
import { SpadeError } from '../runtime/spade-error.js';

/** Root of every error the warm start throws. */
export class WarmStartError extends SpadeError {
  constructor(message: string, code = 'WARM_START', data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code, data, ...(cause === undefined ? {} : { cause }) });
  }
}

/** A library environment could not be loaded or its oracle episode disagreed with the sandbox. */
export class WarmStartDataError extends WarmStartError {
  constructor(message: string, env: string, cause?: unknown) {
    super(message, 'WARM_START_DATA', { env }, cause);
  }
}

export const isWarmStartError = (e: unknown): e is WarmStartError => e instanceof WarmStartError;
export const isWarmStartDataError = (e: unknown): e is WarmStartDataError => e instanceof WarmStartDataError;
