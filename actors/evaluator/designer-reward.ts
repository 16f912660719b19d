// The designer's reward, pure: what an accepted environment earns from its scores and what a rejected one costs.
// `shaped` (the default) gives signal before regret has any: learnability p(1 − p) of the no-hint solve rate (gated
// on the validation oracle winning), max(regret, 0), a feasibility bonus; copies earn copyReward; rejections cost a
// penalty graded by how far validation got. `regret` is the original rule. Reasons and figures: docs/loop.md.
import { VALIDATION_STAGES } from '../../sandbox/index.js';
import type { ResolvedEvaluatorOptions } from './options.js';

export type DesignerRewardKind = 'regret' | 'shaped' | 'copy' | 'fault' | 'infeasible' | 'ablation';

/** What the reward of an accepted environment is computed from (all per environment). */
export interface DesignerRewardInput {
  /** Undefined when an arm has no clean episode. */
  regret: number | undefined;
  feasible: boolean;
  /** Share of clean unhinted episodes with return ≥ tau. */
  solveRateNoHint: number | undefined;
  /** Episodes that ended on an environment fault. */
  faulted: number;
  /** The validation oracle's mean return (absent: no figure, the learnability gate stays shut). */
  oracleMean?: number;
  /** The library module or earlier accepted environment this one copies, or null/absent when it is new. */
  copyOf?: string | null;
}

export interface DesignerRewardResult {
  reward: number;
  kind: DesignerRewardKind;
  /** shaped: the learnability term (after gate and weight), 0 otherwise. */
  learnability: number;
}

/** p(1 − p): 0 when the agent always or never solves it, largest (0.25) at p = 0.5. */
export function learnability(p: number): number {
  return p * (1 - p);
}

export function acceptedReward(x: DesignerRewardInput, o: ResolvedEvaluatorOptions): DesignerRewardResult {
  const r = (reward: number, kind: DesignerRewardKind, l = 0): DesignerRewardResult => ({ reward, kind, learnability: l });
  if (x.faulted > 0 || x.regret === undefined) return r(o.faultPenalty, 'fault');
  if (o.designerReward === 'regret') {
    if (o.noHintRegret) return r(o.validReward, 'ablation');
    return x.feasible ? r(x.regret, 'regret') : r(o.infeasibleReward, 'infeasible');
  }
  if (x.copyOf) return r(o.copyReward, 'copy');
  if (o.noHintRegret) return r(o.validReward, 'ablation');
  const gated = x.oracleMean !== undefined && x.oracleMean >= o.oracleGate;
  const l = gated && x.solveRateNoHint !== undefined ? o.learnabilityWeight * learnability(x.solveRateNoHint) : 0;
  const rest = x.feasible ? o.regretWeight * Math.max(x.regret, 0) + o.feasibleBonus : o.infeasibleReward;
  return r(l + rest, 'shaped', l);
}

/**
 * A rejection's reward. shaped: rejectedPenalty at the first stage (parse), lastStagePenalty at the last
 * (hint-leak), linear in between, so a module that got further is punished less; a stage validation does not
 * know gets the full rejectedPenalty. regret: always rejectedPenalty.
 */
export function rejectedReward(stage: string, o: ResolvedEvaluatorOptions): number {
  if (o.designerReward === 'regret') return o.rejectedPenalty;
  const i = (VALIDATION_STAGES as readonly string[]).indexOf(stage);
  if (i < 0) return o.rejectedPenalty;
  return o.rejectedPenalty + ((o.lastStagePenalty - o.rejectedPenalty) * i) / (VALIDATION_STAGES.length - 1);
}
