// Model FLOPs, counted as the field counts them (2 per multiply-add): the matmuls of the attention and MLP
// projections and of the output head, plus attention's scores and weighted sum over the positions attended to.
// The embedding gather and the elementwise ops are left out.
import type { ResolvedDecoderConfig } from './decoder-config.js';

/** Parameters that take part in a matmul per token (the output head included, tied or not). */
export function matmulParams(c: ResolvedDecoderConfig): number {
  const kv = c.headDim * c.kvHeads, q = c.headDim * c.heads;
  return c.layers * (2 * c.width * q + 2 * c.width * kv + 3 * c.width * c.ffnHidden) + c.vocab * c.width;
}

/** One forward pass over `tokens` new tokens, each attending to `attended` positions on average. */
export function forwardFlops(c: ResolvedDecoderConfig, tokens: number, attended: number): number {
  return 2 * matmulParams(c) * tokens + c.layers * 4 * tokens * attended * c.headDim * c.heads;
}

/** A training step (forward and backward, 3x the forward) over B rows of T tokens, causal attention counted full. */
export function trainFlops(c: ResolvedDecoderConfig, B: number, T: number): number {
  return 3 * forwardFlops(c, B * T, T);
}

/**
 * The backward half alone (two-phase training, model/two-phase.ts): a gradient per matmul operand, 2x the forward,
 * plus the attention scores q·kᵀ it recomputes rather than takes saved (half of the forward's attention term).
 */
export function backwardFlops(c: ResolvedDecoderConfig, B: number, T: number): number {
  return 2 * forwardFlops(c, B * T, T) + c.layers * 2 * B * T * T * c.headDim * c.heads;
}
