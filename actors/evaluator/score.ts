// Pure scoring of one environment: regret and feasibility from its episodes, the designer's reward,
// and GRPO-style group-normalised agent advantages. No I/O; the actor and the tests share it.
import type { Episode } from '../loop/messages.js';
import { acceptedReward, type DesignerRewardKind } from './designer-reward.js';
import type { ResolvedEvaluatorOptions } from './options.js';

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** (x − mean) / (std + eps) with the population std; an all-equal group gets zeros (no signal, no noise). */
export function groupNormalise(xs: readonly number[], eps: number): number[] {
  const m = mean(xs);
  const std = Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
  return xs.map((x) => (x - m) / (std + eps));
}

/** x − mean (Dr. GRPO: no std division); an all-equal group gets zeros. */
export function groupCentre(xs: readonly number[]): number[] {
  const m = mean(xs);
  return xs.map((x) => x - m);
}

export interface EnvScore {
  /** Mean returns over the episodes that ended cleanly (undefined when a side has none). */
  returnHint?: number;
  returnNoHint?: number;
  regret?: number;
  feasible: boolean;
  /** Fraction of clean episodes per arm whose return reached tau (the agent's frontier, for memory retrieval). */
  solveRateHint?: number;
  solveRateNoHint?: number;
  /** Episodes that ended on an environment fault. */
  faulted: number;
  designerReward: number;
  /** Which rule gave the designer's reward (designer-reward.ts). */
  rewardKind: DesignerRewardKind;
  /** The shaped reward's learnability term (0 under the regret rule). */
  learnability: number;
}

/** Facts about the environment beyond its episodes: the validation oracle's mean, and what it copies (if anything). */
export interface EnvFacts {
  oracleMean?: number;
  copyOf?: string | null;
}

export function scoreEpisodes(episodes: readonly Episode[], o: ResolvedEvaluatorOptions, facts: EnvFacts = {}): EnvScore {
  const clean = episodes.filter((e) => e.error === undefined);
  const faulted = episodes.length - clean.length;
  const hint = clean.filter((e) => e.hinted).map((e) => e.return);
  const noHint = clean.filter((e) => !e.hinted).map((e) => e.return);
  const returnHint = hint.length > 0 ? mean(hint) : undefined;
  const returnNoHint = noHint.length > 0 ? mean(noHint) : undefined;
  const regret = returnHint !== undefined && returnNoHint !== undefined ? returnHint - returnNoHint : undefined;
  const feasible = returnHint !== undefined && returnHint >= o.tau;
  const solved = (xs: number[]): number | undefined => (xs.length > 0 ? xs.filter((x) => x >= o.tau).length / xs.length : undefined);
  const base = { returnHint, returnNoHint, regret, feasible, faulted, solveRateHint: solved(hint), solveRateNoHint: solved(noHint) };
  const r = acceptedReward({ ...base, ...facts }, o);
  return { ...base, designerReward: r.reward, rewardKind: r.kind, learnability: r.learnability };
}

export interface AgentLabel {
  episode: Episode;
  advantage: number;
}

/**
 * Advantages of the episodes that train the agent. Each group shares one prompt family: the unhinted episodes,
 * and (with agentEpisodes 'all') the hinted ones as a separate group, since their prompts differ by the hint.
 * Faulted and turn-less episodes carry no policy signal and are left out.
 */
export function agentAdvantages(episodes: readonly Episode[], o: ResolvedEvaluatorOptions): AgentLabel[] {
  const usable = episodes.filter((e) => e.error === undefined && e.turns.length > 0);
  const groups = o.agentEpisodes === 'all' ? [usable.filter((e) => !e.hinted), usable.filter((e) => e.hinted)] : [usable.filter((e) => !e.hinted)];
  return groups.flatMap((g) => {
    const returns = g.map((e) => e.return);
    const adv = o.agentAdvantage === 'mean' ? groupCentre(returns) : groupNormalise(returns, o.advantageEps);
    return g.map((episode, i) => ({ episode, advantage: adv[i]! }));
  });
}
