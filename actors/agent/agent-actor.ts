// The agent role: pulls rollout jobs and plays each environment's 2k episodes with the process's shared policy
// and a sandbox (opened in start(), or injected for tests and embedding).
import { leasePolicyAndSandbox } from '../loop/leases.js';
import { awaitPolicyVersion } from '../loop/policy/await-version.js';
import type { Actor } from '../../runtime/actor.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { consumerFor } from '../../runtime/topology-decls.js';
import { RolloutJob, type RolloutJobBody } from '../loop/messages.js';
import { loopOptionsOf, validateLoopOptions, type LoopOptionsInput } from '../loop/options.js';
import type { Policy } from '../loop/policy/policy-service.js';
import type { Sandbox } from '../sandbox/sandbox-client.js';
import { unpackInts } from '../loop/packed.js';
import { metricOutputs } from '../loop/metrics.js';
import { playGroup, type AgentDeps } from './play.js';

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
      const { policy, sandbox } = await leasePolicyAndSandbox(env, options, opts, cleanups);
      deps = { policy, sandbox, options };
    },
    async handle(job, ctx) {
      const t0 = performance.now();
      await awaitPolicyVersion(deps!.policy, job.minPolicyVersion, ctx.signal);
      const { output, episodes } = await playGroup(job, deps!, ctx.signal);
      stats.groups++;
      let turns = 0, errors = 0, newest = -1, sampled = 0;
      for (const e of episodes) {
        stats.episodes++;
        turns += e.turns.length;
        if (e.error) (errors++, (stats.errors[e.error] = (stats.errors[e.error] ?? 0) + 1));
        for (const s of e.turns) {
          sampled += s.tokens.byteLength / 4;
          const v = unpackInts(s.versions);
          if (v.length) newest = Math.max(newest, v[v.length - 1]!);
        }
      }
      stats.turns += turns;
      const metrics = metricOutputs('agent', ctx.hostId, job.env.envId, {
        'group.ms': performance.now() - t0, episodes: episodes.length, turns, 'sample.tokens': sampled, 'env.errors': errors, ...(newest >= 0 ? { 'policy.version': newest } : {}),
      }, { iteration: String(job.env.iteration) });
      return [output, ...metrics];
    },
    async stop() {
      for (const c of cleanups.splice(0).reverse()) await c();
    },
  };
}
