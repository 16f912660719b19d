// Waiting for the weights a job was issued for: with η = 0 a job of iteration i must be sampled with the
// weights trained on iteration i − 1, so designers and agents wait until their sampler has them.
import type { Policy } from './policy-service.js';

interface Versioned {
  readonly version: number;
  waitForVersion(version: number): Promise<void>;
}

function isVersioned(p: Policy): p is Policy & Versioned {
  return typeof (p as Partial<Versioned>).waitForVersion === 'function';
}

/** Resolves once `policy` samples with `minVersion` or newer; rejects when `signal` aborts (the host drains). */
export async function awaitPolicyVersion(policy: Policy, minVersion: number | undefined, signal?: AbortSignal): Promise<void> {
  if (minVersion === undefined || !isVersioned(policy) || policy.version >= minVersion) return;
  if (!signal) return policy.waitForVersion(minVersion);
  signal.throwIfAborted();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([policy.waitForVersion(minVersion), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
