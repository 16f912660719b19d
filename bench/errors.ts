// Errors of the benchmarks' baselines (bench/): a baseline that cannot load or run fails with a message saying why.
import { SpadeError, fieldError, guard } from '../runtime/spade-error.js';

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

export class BenchOptionError extends fieldError(BenchError, 'BENCH_OPTION', { show: (v) => String(JSON.stringify(v)), data: (_, got) => ({ got }) }) {}

export const isBenchError = guard(BenchError);
export const isBaselineUnavailable = guard(BaselineUnavailableError);
