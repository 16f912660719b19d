// Errors of the benchmarks' baselines (bench/): a baseline that cannot load or run fails with a message saying why.
import { SpadeError } from '../runtime/spade-error.js';

export class BenchError extends SpadeError {
  constructor(message: string, opts: { code?: string; cause?: unknown; data?: Record<string, unknown> } = {}) {
    super(message, { code: opts.code ?? 'BENCH', cause: opts.cause, data: opts.data });
  }
}

/** The baseline's packages are missing (bench/node_modules not installed) or no tfjs backend initialises. */
export class BaselineUnavailableError extends BenchError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'BASELINE_UNAVAILABLE', cause });
  }
}

export class BenchOptionError extends BenchError {
  constructor(field: string, expected: string, got: unknown) {
    super(`${field} must be ${expected} (got ${JSON.stringify(got)})`, { code: 'BENCH_OPTION', data: { field, got } });
  }
}

export const isBenchError = (err: unknown): err is BenchError => err instanceof BenchError;
export const isBaselineUnavailable = (err: unknown): err is BaselineUnavailableError => err instanceof BaselineUnavailableError;
