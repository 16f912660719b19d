// Typed errors of `spade experiment`: a bad option names its path (runtime/options.ts OptionsError); an arm whose run
// failed names the arm, its seed and its run directory.
import { SpadeError } from '../runtime/spade-error.js';

export { OptionsError, isOptionsError } from '../runtime/options.js';

export class ExperimentError extends SpadeError {}

/** An arm's `spade start` child exited non-zero (or by a signal); `log` is its output file. */
export class ArmRunError extends ExperimentError {
  constructor(message: string, readonly arm: string, readonly seed: number, readonly runDir: string, readonly log: string) {
    super(message, { code: 'EXPERIMENT_ARM', data: { arm, seed, runDir, log } });
  }
}

/** A run directory lacks what the experiment reads from it (metrics.jsonl, the learner's final checkpoint). */
export class RunReadError extends ExperimentError {
  constructor(message: string, readonly runDir: string, cause?: unknown) {
    super(message, { code: 'EXPERIMENT_RUN_READ', data: { runDir }, cause });
  }
}

/**
 * A run's archive lacks what the frontier figures read or holds a malformed entry: `file` is the path (a jsonl file or
 * an accepted environment's code file), `line` the 1-based line of the jsonl file at fault (null: the whole file).
 */
export class ArchiveError extends ExperimentError {
  constructor(message: string, readonly runDir: string, readonly file: string, readonly line: number | null, cause?: unknown) {
    super(message, { code: 'EXPERIMENT_ARCHIVE', data: { runDir, file, line }, cause });
  }
}

export const isExperimentError = (e: unknown): e is ExperimentError => e instanceof ExperimentError;
export const isArmRunError = (e: unknown): e is ArmRunError => e instanceof ArmRunError;
export const isArchiveError = (e: unknown): e is ArchiveError => e instanceof ArchiveError;
