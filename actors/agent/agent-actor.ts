// The agent role: pulls rollout jobs and plays each environment's 2k episodes with the process's shared policy
// and a sandbox (opened in start(), or injected for tests and embedding).
import type { Actor } from '../../runtime/actor.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { consumerFor } from '../../runtime/topology.js';
import { RolloutJob } from '../messages.js';
import { loopOptionsOf, validateLoopOptions, type LoopOptionsInput } from '../loop-options.js';
import { leaseSandbox } from '../loop-sandbox.js';
import { leasePolicy } from '../policy/shared.js';
import type { Policy } from '../policy/policy-service.js';
import type { Sandbox } from '../sandbox/sandbox-client.js';
import { playGroup, type AgentDeps, type RolloutJobBody } from './play.js';

export interface AgentActorOptions {
  /** Loop options; default: the config's `loop` section. */
  options?: LoopOptionsInput;
  policy?: Policy;
  sandbox?: Sandbox;
}

export interface AgentStats {
  groups: number;
  episodes: number;
  turns: number;
  /** Episodes that ended on an environment fault, by error code. */
  errors: Record<string, number>;
}

export type AgentActor = Actor<RolloutJobBody> & { readonly stats: AgentStats };

export function createAgentActor(opts: AgentActorOptions = {}): AgentActor {
  let deps: AgentDeps | null = null;
  const cleanups: Array<() => Promise<void>> = [];
  const stats: AgentStats = { groups: 0, episodes: 0, turns: 0, errors: {} };
  return {
    role: 'agent',
    input: { consumer: consumerFor('agent', SUBJECTS.jobRollout), type: RolloutJob },
    stats,
    async start(env) {
      const options = opts.options ? validateLoopOptions(opts.options) : loopOptionsOf(env.config);
      let policy = opts.policy;
      if (!policy) {
        const lease = await leasePolicy(options.policy, env.conn, env.log);
        cleanups.push(() => lease.release());
        policy = lease.policy;
      }
      let sandbox = opts.sandbox;
      if (!sandbox) {
        const lease = leaseSandbox(options.sandbox, env.conn.nc);
        cleanups.push(() => lease.release());
        sandbox = lease.sandbox;
      }
      deps = { policy, sandbox, options };
    },
    async handle(job, ctx) {
      const { output, episodes } = await playGroup(job, deps!, ctx.signal);
      stats.groups++;
      for (const e of episodes) {
        stats.episodes++;
        stats.turns += e.turns.length;
        if (e.error) stats.errors[e.error] = (stats.errors[e.error] ?? 0) + 1;
      }
      return [output];
    },
    async stop() {
      for (const c of cleanups.splice(0).reverse()) await c();
    },
  };
}
