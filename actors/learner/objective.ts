// The per-token policy objective: PPO-style clipping with truncated importance sampling (TIS) against the
// behaviour policy, in two forms. Pure math over log-probs; returns dJ/dlogπ for the training graph.
//
//   'behaviour' (default): r = π_θ/π_behav;  J = min(min(r, C)·A, clip(r, 1−ε, 1+ε)·A)
//       The cap C truncates the importance ratio (Yao et al.); for A < 0 it bounds the loss like dual-clip PPO.
//   'decoupled' (AReaL): π_prox = the learner's policy at the start of the update (detached);
//       w = min(π_prox/π_behav, C),  r = π_θ/π_prox;  J = w·min(r·A, clip(r, 1−ε, 1+ε)·A)
//       The trust region is centred on the recent policy, so stale samples are re-weighted rather than clipped away.
export type ObjectiveKind = 'behaviour' | 'decoupled';

export interface ObjectiveOptions {
  kind: ObjectiveKind;
  /** PPO clip ε. */
  clipEps: number;
  /** TIS cap C on the importance weight. */
  tisCap: number;
}

export interface TokenTerm {
  /** J for this token. */
  objective: number;
  /** dJ/dlogπ_θ (0 where the clipped or capped branch is active). */
  grad: number;
  /** π_θ/π_behav, the off-policyness diagnostic. */
  ratio: number;
  clipped: boolean;
  truncated: boolean;
}

const clip = (x: number, lo: number, hi: number): number => Math.min(Math.max(x, lo), hi);

/** One token: `logp` under the current weights, `behaviour` as sampled, `proximal` for 'decoupled' (defaults to logp). */
export function tokenTerm(logp: number, behaviour: number, advantage: number, o: ObjectiveOptions, proximal = logp): TokenTerm {
  const ratio = Math.exp(logp - behaviour);
  const lo = 1 - o.clipEps, hi = 1 + o.clipEps;
  if (o.kind === 'behaviour') {
    const capped = Math.min(ratio, o.tisCap);
    const free = capped * advantage, bound = clip(ratio, lo, hi) * advantage;
    // Ties go to the unclipped branch: inside the band both branches are the same function of θ.
    const useFree = free <= bound;
    const truncated = useFree && ratio >= o.tisCap && advantage !== 0;
    const grad = useFree && !truncated ? advantage * ratio : 0;
    return { objective: Math.min(free, bound), grad, ratio, clipped: !useFree, truncated };
  }
  const rawWeight = Math.exp(proximal - behaviour);
  const w = Math.min(rawWeight, o.tisCap);
  const r = Math.exp(logp - proximal);
  const free = r * advantage, bound = clip(r, lo, hi) * advantage;
  const useFree = free <= bound;
  return { objective: w * Math.min(free, bound), grad: useFree ? w * advantage * r : 0, ratio, clipped: !useFree, truncated: rawWeight > o.tisCap };
}

/**
 * The KL penalty to a reference policy (the base), per token, with the k3 estimator of Schulman (the one GRPO uses):
 * with δ = log π_ref − log π_θ on a sampled token, k3 = e^δ − δ − 1 ≥ 0, unbiased for KL(π_θ‖π_ref) on π_θ's
 * samples. The objective adds −β·k3, so dJ/dlogπ_θ = β·(e^δ − 1): a token whose probability rose above the
 * reference's is pushed back down, one that fell is pushed up. β = 0 adds nothing.
 */
export function klTerm(logp: number, reference: number, beta: number): { objective: number; grad: number; kl: number } {
  const d = reference - logp, e = Math.exp(d);
  const kl = e - d - 1;
  return { objective: -beta * kl, grad: beta * (e - 1), kl };
}
