// The evaluator's knobs: feasibility threshold, designer rewards and penalties, which episodes train the
// agent, the no-hint-regret ablation, and the designer baseline (EMA rate, normalisation).
import { resolveOptions } from '../../runtime/options.js';
import * as s from '../../runtime/schema.js';

export type AgentEpisodes = 'no-hint' | 'all';
export type AgentAdvantage = 'std' | 'mean';

/**
 * How the designer of an accepted environment is rewarded: `regret` = the original rule (regret when feasible,
 * else infeasibleReward; every rejection rejectedPenalty); `shaped` = learnability + floored regret + feasibility
 * bonus, copies earn copyReward, rejections a penalty graded by stage (see designer-reward.ts and docs/loop.md).
 */
export type DesignerRewardMode = 'regret' | 'shaped';

export interface EvaluatorOptions {
  /** feasible = mean hinted return >= tau: the hint must make the environment solvable. */
  tau?: number;
  /** Designer reward for an environment the sandbox rejected (any stage). */
  rejectedPenalty?: number;
  /** Designer reward for a valid environment that is not feasible (regret is meaningless there). */
  infeasibleReward?: number;
  /** Designer reward when some episode ended on an environment fault at play time (the code is broken after all). */
  faultPenalty?: number;
  /** Ablation "no hint regret": the designer earns `validReward` for any accepted environment, regardless of returns. */
  noHintRegret?: boolean;
  validReward?: number;
  /** Which episodes train the agent: hinted ones too (default; each arm normalised in its own group), or unhinted only. The hinted arm must be trained for the agent to learn to read hints, or regret stays zero by construction. */
  agentEpisodes?: AgentEpisodes;
  /** Added to the group std in GRPO normalisation. */
  advantageEps?: number;
  /**
   * How an agent group's returns become advantages: `std` (GRPO: (R − mean) / (std + eps)) or `mean` (Dr. GRPO:
   * R − mean, no std division, so a group where one of k episodes wins weighs by how much it won, not by how rare).
   */
  agentAdvantage?: AgentAdvantage;
  /** EMA rate of the designer baseline (the first 1/alpha rewards are averaged exactly). */
  baselineAlpha?: number;
  /** Divide designer advantages by the running std (floored at baselineStdFloor), putting them on the agent's scale. */
  normalizeDesigner?: boolean;
  baselineStdFloor?: number;
  /** Designer advantages are clipped to ±this: after a run of equal rewards the std is tiny and one outlier would dominate. */
  designerAdvantageClip?: number;
  /** `shaped` (default) or `regret` (the original rule). */
  designerReward?: DesignerRewardMode;
  /** shaped: weight of p(1 − p), p the no-hint solve rate; 4 puts its maximum (p = 0.5) at 1, regret's maximum. */
  learnabilityWeight?: number;
  /** shaped: learnability counts only when the validation oracle's mean return is at least this (the env is winnable). */
  oracleGate?: number;
  /** shaped: weight of max(regret, 0). */
  regretWeight?: number;
  /** shaped: added for a feasible environment, so a feasible one with regret ≤ 0 still beats an infeasible one. */
  feasibleBonus?: number;
  /** shaped: reward of an accepted environment that copies a library module or an earlier accepted one. */
  copyReward?: number;
  /** shaped: penalty of a rejection at the last stage (hint-leak); rejectedPenalty is the first stage's (parse), linear between. */
  lastStagePenalty?: number;
}

export type ResolvedEvaluatorOptions = Required<EvaluatorOptions>;

export const DEFAULT_EVALUATOR_OPTIONS: ResolvedEvaluatorOptions = {
  tau: 0.5,
  rejectedPenalty: -1,
  infeasibleReward: 0,
  faultPenalty: -1,
  noHintRegret: false,
  validReward: 1,
  agentEpisodes: 'all',
  advantageEps: 1e-6,
  agentAdvantage: 'std',
  baselineAlpha: 0.05,
  normalizeDesigner: true,
  baselineStdFloor: 0.1,
  designerAdvantageClip: 5,
  designerReward: 'shaped',
  learnabilityWeight: 4,
  oracleGate: 0.5,
  regretWeight: 1,
  feasibleBonus: 0.1,
  copyReward: 0,
  lastStagePenalty: -0.25,
};

const finite = s.number();
const positive = s.number({ gt: 0 });

/** The resolved form of EvaluatorOptions; unknown keys are rejected. */
export const EVALUATOR_OPTIONS_SCHEMA: s.Check<ResolvedEvaluatorOptions> = s.object(
  {
    tau: s.number({ min: 0, max: 1 }),
    rejectedPenalty: finite,
    infeasibleReward: finite,
    faultPenalty: finite,
    noHintRegret: s.boolean(),
    validReward: finite,
    agentEpisodes: s.literal('no-hint', 'all'),
    advantageEps: positive,
    agentAdvantage: s.literal('std', 'mean'),
    baselineAlpha: s.number({ gt: 0, max: 1 }),
    normalizeDesigner: s.boolean(),
    baselineStdFloor: positive,
    /** Infinity: no clipping. */
    designerAdvantageClip: s.number({ gt: 0, infinite: true }),
    designerReward: s.literal('regret', 'shaped'),
    learnabilityWeight: s.number({ min: 0 }),
    oracleGate: s.number({ min: 0, max: 1 }),
    regretWeight: s.number({ min: 0 }),
    feasibleBonus: s.number({ min: 0 }),
    copyReward: finite,
    lastStagePenalty: finite,
  },
  { strict: true },
);

/** Fills defaults and checks every field; throws OptionsError naming the first bad or unknown one under `path`. */
export function validateEvaluatorOptions(options: EvaluatorOptions = {}, path = 'loop.evaluator'): ResolvedEvaluatorOptions {
  return resolveOptions(EVALUATOR_OPTIONS_SCHEMA, DEFAULT_EVALUATOR_OPTIONS, options, path);
}
