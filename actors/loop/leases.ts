// What the designer and agent both take at start: this process's shared policy service and sandbox (leased, so the
// last actor to stop closes them), unless a test or an embedding hands them in.
import type { ActorEnv } from '../../runtime/actor.js';
import type { LoopOptions } from './options.js';
import { leaseSandbox } from './sandbox.js';
import type { Policy } from './policy/policy-service.js';
import { leasePolicy } from './policy/shared.js';
import type { Sandbox } from '../sandbox/sandbox-client.js';

export async function leasePolicyAndSandbox(
  env: ActorEnv,
  options: LoopOptions,
  given: { policy?: Policy | undefined; sandbox?: Sandbox | undefined },
  cleanups: Array<() => Promise<void>>,
): Promise<{ policy: Policy; sandbox: Sandbox }> {
  let policy = given.policy;
  if (!policy) {
    const lease = await leasePolicy(options.policy, env.conn, env.log);
    cleanups.push(() => lease.release());
    policy = lease.policy;
  }
  let sandbox = given.sandbox;
  if (!sandbox) {
    const lease = await leaseSandbox(options.sandbox, env.conn.nc);
    cleanups.push(() => lease.release());
    sandbox = lease.sandbox;
  }
  return { policy, sandbox };
}
