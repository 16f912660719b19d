// The sandbox the designer and agent use: the cluster's sandbox role through SandboxClient ('remote'), or one
// SandboxPool per process shared by both roles ('local'), under the config's limits (loop.sandbox.limits).
import type { NatsConnection } from '@nats-io/transport-node';
import { SandboxPool } from '../sandbox/index.js';
import { SandboxClient, type Sandbox } from './sandbox/sandbox-client.js';
import type { LoopOptions } from './loop-options.js';

export interface SandboxLease {
  sandbox: Sandbox;
  release(): Promise<void>;
}

let local: { pool: SandboxPool; leases: number } | null = null;

export function leaseSandbox(o: LoopOptions['sandbox'], nc: NatsConnection): SandboxLease {
  if (o.mode === 'remote') {
    return { sandbox: new SandboxClient(nc), release: async () => undefined };
  }
  local ??= { pool: new SandboxPool({ ...o.limits, workers: o.workers }), leases: 0 };
  const entry = local;
  entry.leases++;
  let released = false;
  return {
    sandbox: entry.pool,
    async release() {
      if (released) return;
      released = true;
      if (--entry.leases > 0) return;
      if (local === entry) local = null;
      await entry.pool.close();
    },
  };
}
