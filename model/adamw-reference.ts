// The plain AdamW loop the SIMD kernel replaced, in float64 arithmetic over float32 storage: the reference the
// kernel is tested against (to 1e-6 over ten steps) and bench:model's baseline for the optimizer's speed.
export interface AdamWLoopScalars {
  clipScale: number;
  beta1: number;
  beta2: number;
  shrink: number;
  stepSize: number;
  /** √(1 − β2^t) */
  bc2Sqrt: number;
  eps: number;
}

export function adamwLoopUpdate(p: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, s: AdamWLoopScalars): void {
  const { clipScale, beta1, beta2, shrink, stepSize, bc2Sqrt, eps } = s;
  for (let i = 0; i < p.length; i++) {
    const gi = g[i]! * clipScale;
    const mi = (m[i] = beta1 * m[i]! + (1 - beta1) * gi);
    const vi = (v[i] = beta2 * v[i]! + (1 - beta2) * gi * gi);
    p[i] = p[i]! * shrink - (stepSize * mi) / (Math.sqrt(vi) / bc2Sqrt + eps);
  }
}

/** Σ x² as the loop computed it. */
export function sumOfSquaresLoop(x: Float32Array): number {
  let sq = 0;
  for (let i = 0; i < x.length; i++) sq += x[i]! * x[i]!;
  return sq;
}
