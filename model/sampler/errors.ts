// Typed errors of the batched sampler (bad requests are ModelOptionError; these are lifecycle problems).
import { ModelError } from '../errors.js';

export class SamplerError extends ModelError {}

export function isSamplerError(err: unknown): err is SamplerError {
  return err instanceof SamplerError;
}

/** The sampler was closed while the request waited or ran, or a request came after close(). */
export class SamplerClosedError extends SamplerError {
  constructor() {
    super('sampler is closed', { code: 'SAMPLER_CLOSED' });
  }
}

/** setWeights() with a version that does not increase: a version never goes backwards. */
export class StaleWeightsError extends SamplerError {
  constructor(current: number, offered: number) {
    super(`weights version ${offered} is not newer than the current ${current}`, { code: 'SAMPLER_STALE_WEIGHTS', data: { current, offered } });
  }
}
