// The designer's running baseline: an exponential moving mean and variance of designer rewards.
// Designer samples have no group (one module per prompt), so GRPO cannot apply; a running baseline
// needs no waiting for other environments and survives restarts as one small KV value.
import type { ResolvedEvaluatorOptions } from './options.js';

export interface BaselineState {
  mean: number;
  variance: number;
  /** Rewards seen; the first 1/alpha are averaged exactly (rate max(alpha, 1/(count+1))), so the start is unbiased. */
  count: number;
  /** Advantages already given, by batch id (newest last, bounded): a redelivered environment gets the same one. */
  recent: Array<[string, number]>;
}

export const EMPTY_BASELINE: BaselineState = { mean: 0, variance: 0, count: 0, recent: [] };
export const RECENT_LIMIT = 512;

export interface BaselineStep {
  advantage: number;
  next: BaselineState;
}

type BaselineOptions = Pick<ResolvedEvaluatorOptions, 'baselineAlpha' | 'normalizeDesigner' | 'baselineStdFloor' | 'designerAdvantageClip'>;

/** The advantage of `reward` against the baseline before it (unbiased), and the baseline after it. */
export function baselineStep(state: BaselineState, batchId: string, reward: number, o: BaselineOptions): BaselineStep {
  const seen = state.recent.find(([id]) => id === batchId);
  if (seen) return { advantage: seen[1], next: state };
  const diff = reward - state.mean;
  const std = state.count >= 2 ? Math.max(Math.sqrt(state.variance), o.baselineStdFloor) : 1;
  // No baseline before the first reward: a zero advantage rather than the raw reward.
  const raw = state.count === 0 ? 0 : o.normalizeDesigner ? diff / std : diff;
  const advantage = Math.max(-o.designerAdvantageClip, Math.min(o.designerAdvantageClip, raw));
  const a = Math.max(o.baselineAlpha, 1 / (state.count + 1));
  const next: BaselineState = {
    mean: state.mean + a * diff,
    variance: (1 - a) * (state.variance + a * diff * diff),
    count: state.count + 1,
    recent: [...state.recent, [batchId, advantage] as [string, number]].slice(-RECENT_LIMIT),
  };
  return { advantage, next };
}
