// What a learner update reports: per role and in all, for one pass over the rows (GradientStats), one epoch's
// gradients (EpochGradients), one optimizer step (AppliedStep) and the whole update (UpdateStats).
import type { Role } from './rows.js';

/** Per role, first epoch. */
export interface RoleUpdateStats {
  /** Trained tokens of the role in these rows. */
  tokens: number;
  /** The role's token-mean denominator N_r (its trained tokens in the whole minibatch, zero-advantage ones included). */
  norm: number;
  /** −(1/N_r)·Σ J over the role's tokens. */
  loss: number;
  /**
   * −mean log π_θ of the sampled tokens: the Monte-Carlo estimate of the policy's per-token entropy on its own
   * samples (exact in expectation when sampled at temperature 1 by these weights). NaN without tokens.
   */
  entropy: number;
}

export interface UpdateStats {
  rows: number;
  /** Trained tokens (the token-mean's N). */
  tokens: number;
  /** Tokens run through the model (prompts included, padding not). */
  processedTokens: number;
  /** −mean J over trained tokens (first epoch). */
  loss: number;
  clipFraction: number;
  tisFraction: number;
  /** Mean π_θ/π_behav over trained tokens (first epoch). */
  meanRatio: number;
  /** With a KL penalty: the mean k3 estimate of KL(π_θ‖π_ref) over trained tokens (first epoch). */
  kl?: number;
  byRole: Record<Role, RoleUpdateStats>;
  gradNorm: number;
  lr: number;
  optimizerStep: number;
  computeMs: number;
}

/** What one pass over the rows reports: the update's statistics less the optimizer's and the timing. */
export type GradientStats = Omit<UpdateStats, 'gradNorm' | 'lr' | 'optimizerStep' | 'computeMs'>;

/** One epoch's gradients, not applied, as one vector in sorted parameter order (param-vector.ts). */
export interface EpochGradients {
  grads: Float32Array;
  stats: GradientStats;
}

/** What one optimizer step reports. */
export interface AppliedStep {
  gradNorm: number;
  lr: number;
  /** Optimizer steps taken so far, this one included. */
  step: number;
}

/** The statistics of an update that computed nothing (no rows, or only zero-advantage ones): no optimizer step. */
export function noUpdateStats(optimizerStep: number): UpdateStats {
  const none = { tokens: 0, norm: 0, loss: 0, entropy: NaN };
  return {
    rows: 0, tokens: 0, processedTokens: 0, loss: 0, clipFraction: 0, tisFraction: 0, meanRatio: 1, byRole: { designer: none, agent: { ...none } },
    gradNorm: 0, lr: 0, optimizerStep, computeMs: 0,
  };
}
