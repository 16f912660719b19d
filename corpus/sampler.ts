// Weighted sampling in O(1) per draw (Walker/Vose alias method), deterministic for a given random stream:
// uniform when all weights are equal. Holds two arrays of n numbers, nothing else.
import { OptionsError } from '../runtime/options.js';
import { CorpusEmptyError } from './errors.js';

/** A source of floats in [0, 1), e.g. makeRandom(seed) from sandbox/prng.ts. */
export type Random = () => number;

export class CorpusSampler {
  readonly size: number;
  private readonly prob: Float64Array;
  private readonly alias: Uint32Array;

  /** `weights[i]` is the relative mass of item i; all finite and >= 0, at least one > 0. */
  constructor(weights: ArrayLike<number>) {
    const n = weights.length;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[i]!;
      if (!Number.isFinite(w) || w < 0) throw new OptionsError(`weights[${i}]`, 'a finite number >= 0', w);
      total += w;
    }
    if (!(total > 0)) throw new CorpusEmptyError('nothing to sample: no item has a positive weight');
    this.size = n;
    this.prob = new Float64Array(n);
    this.alias = new Uint32Array(n);
    const scaled = new Float64Array(n);
    const small: number[] = [];
    const large: number[] = [];
    for (let i = 0; i < n; i++) {
      scaled[i] = (weights[i]! * n) / total;
      (scaled[i]! < 1 ? small : large).push(i);
    }
    while (small.length > 0 && large.length > 0) {
      const s = small.pop()!;
      const l = large[large.length - 1]!;
      this.prob[s] = scaled[s]!;
      this.alias[s] = l;
      scaled[l] = scaled[l]! + scaled[s]! - 1;
      if (scaled[l]! < 1) small.push(large.pop()!);
    }
    // What is left holds 1 up to rounding; a zero-weight item must still never be drawn, so it points elsewhere.
    let positive = 0;
    while (!(weights[positive]! > 0)) positive++;
    for (const i of large) this.prob[i] = 1;
    for (const i of small) {
      this.prob[i] = weights[i]! > 0 ? 1 : 0;
      this.alias[i] = positive;
    }
  }

  /** Draws one index; consumes exactly one number from `random`. */
  sample(random: Random): number {
    const u = random() * this.size;
    const i = Math.min(Math.floor(u), this.size - 1);
    return u - i < this.prob[i]! ? i : this.alias[i]!;
  }
}
