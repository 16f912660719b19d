// The evaluator's knobs: feasibility threshold, designer rewards and penalties, which episodes train the
// agent, the no-hint-regret ablation, and the designer baseline (EMA rate, normalisation).
import { EvaluatorOptionsError } from './errors.js';

export type AgentEpisodes = 'no-hint' | 'all';

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
  /** Which episodes train the agent: unhinted only (default), or hinted ones too (each normalised in its own group). */
  agentEpisodes?: AgentEpisodes;
  /** Added to the group std in GRPO normalisation. */
  advantageEps?: number;
  /** EMA rate of the designer baseline (the first 1/alpha rewards are averaged exactly). */
  baselineAlpha?: number;
  /** Divide designer advantages by the running std (floored at baselineStdFloor), putting them on the agent's scale. */
  normalizeDesigner?: boolean;
  baselineStdFloor?: number;
  /** Designer advantages are clipped to ±this: after a run of equal rewards the std is tiny and one outlier would dominate. */
  designerAdvantageClip?: number;
}

export type ResolvedEvaluatorOptions = Required<EvaluatorOptions>;

export const DEFAULT_EVALUATOR_OPTIONS: ResolvedEvaluatorOptions = {
  tau: 0.5,
  rejectedPenalty: -1,
  infeasibleReward: 0,
  faultPenalty: -1,
  noHintRegret: false,
  validReward: 1,
  agentEpisodes: 'no-hint',
  advantageEps: 1e-6,
  baselineAlpha: 0.05,
  normalizeDesigner: true,
  baselineStdFloor: 0.1,
  designerAdvantageClip: 5,
};

export function validateEvaluatorOptions(options: EvaluatorOptions = {}): ResolvedEvaluatorOptions {
  const o = { ...DEFAULT_EVALUATOR_OPTIONS, ...options };
  const finite = (f: keyof EvaluatorOptions): void => {
    if (typeof o[f] !== 'number' || !Number.isFinite(o[f])) throw new EvaluatorOptionsError(f, 'a finite number', o[f]);
  };
  for (const f of ['tau', 'rejectedPenalty', 'infeasibleReward', 'faultPenalty', 'validReward'] as const) finite(f);
  if (o.tau < 0 || o.tau > 1) throw new EvaluatorOptionsError('tau', 'a number in [0, 1] (returns lie in [0, 1])', o.tau);
  if (typeof o.noHintRegret !== 'boolean') throw new EvaluatorOptionsError('noHintRegret', 'true or false', o.noHintRegret);
  if (typeof o.normalizeDesigner !== 'boolean') throw new EvaluatorOptionsError('normalizeDesigner', 'true or false', o.normalizeDesigner);
  if (o.agentEpisodes !== 'no-hint' && o.agentEpisodes !== 'all') throw new EvaluatorOptionsError('agentEpisodes', "'no-hint' or 'all'", o.agentEpisodes);
  if (!(typeof o.advantageEps === 'number' && o.advantageEps > 0 && Number.isFinite(o.advantageEps))) throw new EvaluatorOptionsError('advantageEps', 'a finite number > 0', o.advantageEps);
  if (!(typeof o.baselineAlpha === 'number' && o.baselineAlpha > 0 && o.baselineAlpha <= 1)) throw new EvaluatorOptionsError('baselineAlpha', 'a number in (0, 1]', o.baselineAlpha);
  if (!(typeof o.baselineStdFloor === 'number' && o.baselineStdFloor > 0 && Number.isFinite(o.baselineStdFloor)))
    throw new EvaluatorOptionsError('baselineStdFloor', 'a finite number > 0', o.baselineStdFloor);
  if (!(typeof o.designerAdvantageClip === 'number' && o.designerAdvantageClip > 0)) throw new EvaluatorOptionsError('designerAdvantageClip', 'a number > 0 (Infinity: no clipping)', o.designerAdvantageClip);
  return o;
}
