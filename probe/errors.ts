// Typed errors of the learner probe: a bad option, or a module the probe cannot train on.
import { SpadeError, fieldError, guard, located } from '../runtime/spade-error.js';

export class ProbeError extends SpadeError {}

/** A probe option or argument is invalid; `field` names it (e.g. `--minutes`, `buffer.perFamily`). */
export class ProbeOptionsError extends fieldError(ProbeError, 'PROBE_OPTIONS') {}

/** A module given to the probe fails validation or has no knob to move; `file` names it. */
export class ProbeModuleError extends located(ProbeError, 'PROBE_MODULE', 'file') {}

/** The area's `isX(err)` helpers. */
export const isProbeError = guard(ProbeError), isProbeOptionsError = guard(ProbeOptionsError), isProbeModuleError = guard(ProbeModuleError);
