// One policy service per host process: the designer and agent actors lease the same instance, so their requests
// share decode steps in one sampler; the last release closes it.
import type { WeightSyncConnection } from '../../../weight-sync/index.js';
import { SharedInstance } from '../../../runtime/lease.js';
import type { LoopOptions } from '../options.js';
import { PolicyService } from './policy-service.js';

const shared = new SharedInstance<PolicyService>((service) => service.close());

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
  const lease = await shared.lease(
    JSON.stringify(policy),
    () => PolicyService.open({ policy, conn, log }),
    () => log('policy: another role asked for different loop.policy options; sharing the service already open in this process'),
  );
  return { policy: lease.value, release: lease.release };
}
