// Packs variable-length token sequences into the training graph's (B, T) layout: right-padded, with a loss mask,
// and maps the (B, T-1) log-probs back to per-sequence arrays. Right padding is safe under causal attention:
// padding comes after every real token, so no real position attends to it.
import { ModelOptionError } from './errors.js';
import type { TrainBatch } from './session.js';

export interface PackRow {
  tokens: number[];
  /** Per predicted token (length tokens.length - 1): 1 where its log-prob counts, e.g. completion tokens only. Default all 1. */
  mask?: number[];
  /** Per predicted token: d objective / d logp. Default 0. */
  dlogp?: number[];
  /** Temperature the row's log-probs are computed at (> 0). Default 1, the model's own distribution. */
  temperature?: number;
}

export interface PackedBatch extends TrainBatch {
  /** Real length of each row (tokens, not predictions). */
  lengths: number[];
}

export function packBatch(rows: readonly PackRow[], options: { padId?: number; time?: number; dtype?: 'float32' | 'float64' } = {}): PackedBatch {
  if (rows.length === 0) throw new ModelOptionError('rows', 'at least one sequence', 0);
  const longest = Math.max(...rows.map((r) => r.tokens.length));
  const T = options.time ?? longest;
  if (!Number.isInteger(T) || T < longest || T < 2) throw new ModelOptionError('time', `an integer >= the longest row (${Math.max(longest, 2)})`, T);
  const B = rows.length;
  const make = (n: number): Float32Array | Float64Array => (options.dtype === 'float64' ? new Float64Array(n) : new Float32Array(n));
  const tokens = new BigInt64Array(B * T).fill(BigInt(options.padId ?? 0));
  const mask = make(B * (T - 1)), dlogp = make(B * (T - 1)), invTemp = make(B);
  rows.forEach((r, b) => {
    const n = r.tokens.length;
    if (n < 2) throw new ModelOptionError(`rows[${b}].tokens`, 'at least 2 tokens', n);
    for (const [f, v] of [['mask', r.mask], ['dlogp', r.dlogp]] as const) {
      if (v && v.length !== n - 1) throw new ModelOptionError(`rows[${b}].${f}`, `${n - 1} values (one per predicted token)`, v.length);
    }
    const temp = r.temperature ?? 1;
    if (!(temp > 0 && Number.isFinite(temp))) throw new ModelOptionError(`rows[${b}].temperature`, 'a finite number > 0', r.temperature);
    invTemp[b] = 1 / temp;
    r.tokens.forEach((t, i) => (tokens[b * T + i] = BigInt(t)));
    for (let i = 0; i < n - 1; i++) {
      mask[b * (T - 1) + i] = r.mask ? r.mask[i]! : 1;
      dlogp[b * (T - 1) + i] = r.dlogp ? r.dlogp[i]! : 0;
    }
  });
  return { tokens, batch: B, time: T, mask, dlogp, invTemp, lengths: rows.map((r) => r.tokens.length) };
}

/** Splits (B, T-1) log-probs into one array per row, without the padded tail. */
export function unpackLogp(logp: ArrayLike<number>, packed: Pick<PackedBatch, 'time' | 'lengths'>): number[][] {
  const W = packed.time - 1;
  return packed.lengths.map((n, b) => Array.from({ length: n - 1 }, (_, i) => logp[b * W + i]!));
}
