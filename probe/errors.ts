// Typed errors of the learner probe: a bad option, or a module the probe cannot train on.
import { SpadeError } from '../runtime/spade-error.js';

export class ProbeError extends SpadeError {}

/** A probe option or argument is invalid; `field` names it (e.g. `--minutes`, `buffer.perFamily`). */
export class ProbeOptionsError extends ProbeError {
  constructor(readonly field: string, expected: string, value: unknown) {
    super(`${field} must be ${expected} (got ${JSON.stringify(value) ?? String(value)})`, { code: 'PROBE_OPTIONS', data: { field } });
  }
}

/** A module given to the probe fails validation or has no knob to move; `file` names it. */
export class ProbeModuleError extends ProbeError {
  constructor(message: string, readonly file: string, cause?: unknown) {
    super(message, { code: 'PROBE_MODULE', data: { file }, cause });
  }
}

export const isProbeError = (e: unknown): e is ProbeError => e instanceof ProbeError;
export const isProbeOptionsError = (e: unknown): e is ProbeOptionsError => e instanceof ProbeOptionsError;
export const isProbeModuleError = (e: unknown): e is ProbeModuleError => e instanceof ProbeModuleError;
