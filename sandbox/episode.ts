// Plays one whole episode on a fresh instance with a policy; validation is made of these.
import type { EnvInstance } from './instance.js';

/** Picks the next action; `inst` is offered for the oracle policy, which asks the module itself. */
export type Policy = (observation: string, turn: number, inst: EnvInstance) => string;

export interface EpisodeRecord {
  seed: number;
  /** The instance's hint: what reset() returned (contract v2), else null (spec.hint applies). */
  instanceHint: string | null;
  actions: string[];
  /** reset observation (with the instance hint, if any), then one JSON line per step: exact enough to compare replays. */
  transcript: string[];
  total: number;
  turns: number;
  endedByEnv: boolean;
  maxCallMs: number;
}

export function playEpisode(inst: EnvInstance, seed: number, policy: Policy): EpisodeRecord {
  let t0 = performance.now();
  let obs = inst.reset(seed);
  let maxCallMs = performance.now() - t0;
  const transcript = [inst.instanceHint === null ? obs : JSON.stringify([obs, inst.instanceHint])];
  const actions: string[] = [];
  let endedByEnv = false;
  while (!inst.done) {
    const action = policy(obs, inst.turn, inst);
    actions.push(action);
    t0 = performance.now();
    const r = inst.step(action);
    maxCallMs = Math.max(maxCallMs, performance.now() - t0);
    transcript.push(JSON.stringify([r.observation, r.reward, r.terminated, r.truncated, r.info]));
    obs = r.observation;
    if (r.terminated || (r.truncated && inst.turn < inst.maxTurns)) endedByEnv = true;
  }
  return { seed, instanceHint: inst.instanceHint, actions, transcript, total: inst.total, turns: inst.turn, endedByEnv, maxCallMs };
}

/** Replays fixed actions (stopping early if the episode ends) — the determinism check's second run. */
export function replayEpisode(inst: EnvInstance, seed: number, actions: readonly string[]): EpisodeRecord {
  let i = 0;
  return playEpisode(inst, seed, () => actions[i++] ?? '');
}
