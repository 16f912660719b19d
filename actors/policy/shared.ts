// One policy service per host process: the designer and agent actors lease the same instance, so their requests
// share decode steps in one sampler; the last release closes it.
import type { WeightSyncConnection } from '../../model/weight-sync.js';
import type { LoopOptions } from '../loop-options.js';
import { PolicyService } from './policy-service.js';

interface Entry {
  key: string;
  service: Promise<PolicyService>;
  leases: number;
}

let current: Entry | null = null;

export interface PolicyLease {
  policy: PolicyService;
  /** Gives the lease back; the service closes when no lease is left. */
  release(): Promise<void>;
}

/**
 * Leases the process-wide policy service, opening it on first use. A second caller with different policy
 * options gets the running service (one model per process) and a log line saying so.
 */
export async function leasePolicy(policy: LoopOptions['policy'], conn: WeightSyncConnection | null, log: (line: string) => void = () => undefined): Promise<PolicyLease> {
  const key = JSON.stringify(policy);
  if (!current) {
    const entry: Entry = { key, leases: 0, service: PolicyService.open({ policy, conn, log }) };
    current = entry;
    entry.service.catch(() => {
      if (current === entry) current = null;
    });
  } else if (current.key !== key) log('policy: another role asked for different loop.policy options; sharing the service already open in this process');
  const entry = current;
  const service = await entry.service;
  entry.leases++;
  let released = false;
  return {
    policy: service,
    async release() {
      if (released) return;
      released = true;
      if (--entry.leases > 0) return;
      if (current === entry) current = null;
      await service.close();
    },
  };
}
