// The sandbox the designer and agent use: the cluster's sandbox role through SandboxClient ('remote'), or one
// SandboxPool per process shared by both roles ('local'), under the config's limits (loop.sandbox.limits).
import type { NatsConnection } from '@nats-io/transport-node';
import { SharedInstance } from '../../runtime/lease.js';
import { SandboxPool } from '../../sandbox/index.js';
import { SandboxClient, type Sandbox } from '../sandbox/sandbox-client.js';
import type { LoopOptions } from './options.js';

export interface SandboxLease {
  sandbox: Sandbox;
  release(): Promise<void>;
}

const local = new SharedInstance<SandboxPool>((pool) => pool.close());

/** 'local': the process's pool, opened with the first lease's worker count (later ones share it). */
export async function leaseSandbox(o: LoopOptions['sandbox'], nc: NatsConnection): Promise<SandboxLease> {
  if (o.mode === 'remote') {
    return { sandbox: new SandboxClient(nc), release: async () => undefined };
  }
  const lease = await local.lease('local', () => new SandboxPool({ ...o.limits, workers: o.workers }));
  return { sandbox: lease.value, release: lease.release };
}
