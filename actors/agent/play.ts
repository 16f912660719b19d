// The agent's logic for one rollout job, apart from the runtime: k episodes without the hint and k with it, all
// at once so their turns batch in the sampler; each turn's SAMPLE is kept. Environment faults end an episode
// (error = the typed code); sandbox or policy failures fail the job so the host retries it.
import { randomBytes } from 'node:crypto';
import type { ActorOutput } from '../../runtime/actor.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { isEnvError, isEnvTimeout, type StepResult } from '../../sandbox/index.js';
import type { Sandbox } from '../sandbox/sandbox-client.js';
import { TrajectoryGroup, type AcceptedEnv, type Episode, type RolloutJobBody } from '../loop/messages.js';
import type { LoopOptions } from '../loop/options.js';
import { agentPrompt, type AgentTurn } from '../loop/prompts.js';
import type { Policy } from '../loop/policy/policy-service.js';

export interface AgentDeps {
  policy: Policy;
  sandbox: Sandbox;
  options: LoopOptions;
}

export interface EpisodePlan {
  trajId: string;
  hinted: boolean;
  seed: number;
}

/** Episode i of each arm uses seed seedBase + i, so hinted and unhinted play the same instances (paired regret). */
export function planEpisodes(job: RolloutJobBody): EpisodePlan[] {
  const plans: EpisodePlan[] = [];
  for (const hinted of [false, true])
    for (let i = 0; i < job.k; i++) plans.push({ trajId: `${job.env.envId}/${hinted ? 'h' : 'n'}${i}`, hinted, seed: job.seedBase + i });
  return plans;
}

export function groupIdOf(envId: string): string {
  return `group-${envId}`.slice(0, 200);
}

/**
 * A call over its time limit is replayed up to `retries` times (loop.agent.timeoutRetries; replay makes it
 * idempotent): on shared cores a module load or a step occasionally overruns for reasons that are not the
 * environment's, and one such blip should not end an episode as a fault. The limit itself is
 * loop.sandbox.limits.callTimeoutMs, the same one validation applies.
 */
async function retryTimeouts<T>(retries: number, call: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await call();
    } catch (err) {
      if (i >= retries || !isEnvTimeout(err)) throw err;
    }
  }
}

/**
 * `attempt` keys the sandbox's live instance: unique per play, so two hosts replaying one redelivered job never
 * step each other's instance (a collision would only cost a replay, except when both sit at the same turn).
 */
export async function playEpisode(env: AcceptedEnv, plan: EpisodePlan, deps: AgentDeps, attempt: string, signal?: AbortSignal): Promise<Episode> {
  const episodeId = `${plan.trajId}@${attempt}`;
  try {
    const ep = await play(env, plan, deps, episodeId, signal);
    (deps.sandbox as { release?: (episodeId: string) => void }).release?.(episodeId);
    return ep;
  } finally {
    deps.policy.release?.(episodeId); // the sampler's prefix cache for its turns
  }
}

async function play(env: AcceptedEnv, plan: EpisodePlan, deps: AgentDeps, episodeId: string, signal?: AbortSignal): Promise<Episode> {
  const { policy, sandbox, options: o } = deps;
  const ep: Episode = { trajId: plan.trajId, hinted: plan.hinted, seed: plan.seed, turns: [], rewards: [], return: 0, terminated: false };
  const ref = { code: env.code, codeHash: env.codeHash, seed: plan.seed, episodeId };
  const maxTurns = Math.min(env.spec.maxTurns, o.agent.maxTurns);
  const maxPromptTokens = Math.min(o.agent.maxPromptTokens, policy.contextLength - Math.min(o.agent.maxTokens, Math.floor(policy.contextLength / 2)));
  const history: AgentTurn[] = [];
  const actions: string[] = [];
  let observation: string;
  let hint: string;
  try {
    const first = await retryTimeouts(o.agent.timeoutRetries, () => sandbox.reset(ref));
    observation = first.observation;
    // The instance's own hint (contract v2: reset() returned one), else spec.hint; only the hinted arm sees it.
    hint = typeof first.hint === 'string' ? first.hint : env.spec.hint;
  } catch (err) {
    if (!isEnvError(err)) throw err;
    return { ...ep, error: err.code };
  }
  for (let turn = 0; turn < maxTurns; turn++) {
    signal?.throwIfAborted();
    const prompt = agentPrompt(policy.format, {
      description: env.spec.description, ...(plan.hinted ? { hint } : {}), history, observation, maxPromptTokens,
    });
    const sample = await policy.sample(prompt, {
      maxTokens: o.agent.maxTokens, temperature: o.agent.temperature, topP: o.agent.topP, role: 'agent', cacheKey: episodeId, ...(signal ? { signal } : {}),
    });
    signal?.throwIfAborted(); // a cancelled generation is cut short: the job is retried, not recorded
    ep.turns.push(sample);
    actions.push(sample.text);
    let r: StepResult;
    try {
      r = await retryTimeouts(o.agent.timeoutRetries, () => sandbox.step({ ...ref, actions: [...actions] }));
    } catch (err) {
      if (!isEnvError(err)) throw err;
      return { ...ep, error: err.code };
    }
    ep.rewards.push(r.reward);
    ep.return = r.totalReward;
    history.push({ observation, action: sample.text });
    observation = r.observation;
    if (r.done) {
      ep.terminated = r.terminated;
      break;
    }
  }
  return ep;
}

/** Plays all 2k episodes of a job concurrently; returns the traj.group output (msgId from the env id). */
export async function playGroup(job: RolloutJobBody, deps: AgentDeps, signal?: AbortSignal): Promise<{ output: ActorOutput; episodes: Episode[] }> {
  const attempt = randomBytes(6).toString('hex');
  const episodes = await Promise.all(planEpisodes(job).map((p) => playEpisode(job.env, p, deps, attempt, signal)));
  const groupId = groupIdOf(job.env.envId);
  return {
    episodes,
    output: { subject: SUBJECTS.trajRaw, type: TrajectoryGroup, body: { groupId, env: job.env, episodes }, msgId: `traj:${groupId}` },
  };
}
