// Typed errors of the warm start (supervised base-checkpoint training and the designer evaluation).
import { SpadeError } from '../../runtime/spade-error.js';

/** Root of every error the warm start throws. */
export class WarmStartError extends SpadeError {
  constructor(message: string, code = 'WARM_START', data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code, data, ...(cause === undefined ? {} : { cause }) });
  }
}

/** A bad option value: the message names the field and what was expected. */
export class WarmStartOptionsError extends WarmStartError {
  readonly field: string;
  constructor(field: string, expected: string, actual: unknown) {
    super(`options.${field} must be ${expected} (got ${JSON.stringify(actual)})`, 'WARM_START_OPTION', { field, expected });
    this.field = field;
  }
}

/** A library environment could not be loaded or its oracle episode disagreed with the sandbox. */
export class WarmStartDataError extends WarmStartError {
  constructor(message: string, env: string, cause?: unknown) {
    super(message, 'WARM_START_DATA', { env }, cause);
  }
}

export const isWarmStartError = (e: unknown): e is WarmStartError => e instanceof WarmStartError;
export const isWarmStartOptionsError = (e: unknown): e is WarmStartOptionsError => e instanceof WarmStartOptionsError;
export const isWarmStartDataError = (e: unknown): e is WarmStartDataError => e instanceof WarmStartDataError;
