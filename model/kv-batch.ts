// The running batch's KV cache: per layer (B, K, P, D) tensors plus, per row, which of the P slots hold its keys.
// Rows join and leave by repacking (each row's valid slots moved to the front; attention does not care about slot
// order because RoPE is applied before caching); a decode step appends one slot to every row.
import ort from 'onnxruntime-node';
import type { KvCache } from './session.js';

const MASKED = -1e9;

/** Row `row` of a prefill's present cache, and which of its slots are real tokens (left padding is not). */
export interface Joiner {
  cache: KvCache;
  row: number;
  valid: Uint8Array;
}

export class KvBatch {
  private constructor(
    public cache: KvCache,
    /** Per row: 1 where the slot holds one of its tokens. Length P for every row. */
    public valid: Uint8Array[],
    readonly dtype: 'float32' | 'float64',
  ) {}

  static empty(layers: number, kvHeads: number, headSize: number, dtype: 'float32' | 'float64'): KvBatch {
    const t = (): ort.Tensor => new ort.Tensor(dtype, dtype === 'float64' ? new Float64Array(0) : new Float32Array(0), [0, kvHeads, 0, headSize]);
    return new KvBatch({ k: Array.from({ length: layers }, t), v: Array.from({ length: layers }, t) }, [], dtype);
  }

  get rows(): number { return this.valid.length; }
  get slots(): number { return this.cache.k[0]?.dims[2] ?? 0; }

  /** Additive bias (B, 1, P+1) for a decode step: each row sees its valid slots and the new one. */
  decodeBias(): Float32Array | Float64Array {
    const P = this.slots;
    const bias = this.dtype === 'float64' ? new Float64Array(this.rows * (P + 1)) : new Float32Array(this.rows * (P + 1));
    this.valid.forEach((v, r) => { for (let j = 0; j < P; j++) if (!v[j]) bias[r * (P + 1) + j] = MASKED; });
    return bias;
  }

  /** After a decode step: the step's present tensors become the cache and every row gained the new slot. */
  appendStep(present: KvCache): void {
    this.cache = present;
    this.valid = this.valid.map((v) => { const n = new Uint8Array(v.length + 1); n.set(v); n[v.length] = 1; return n; });
  }

  /**
   * Keeps the rows in `keep` (old indices, in the new order) and appends `joining` rows of other caches (a batched
   * prefill), each with its own valid slots. Each row's valid slots are packed to the front, so P shrinks to the
   * longest row.
   */
  repack(keep: readonly number[], joining: readonly Joiner[]): void {
    const layers = this.cache.k.length;
    const [, K, , D] = this.cache.k[0]!.dims as number[];
    const P = this.slots;
    const validSlots = (v: Uint8Array): number[] => [...v.keys()].filter((j) => v[j]);
    const srcRows: { cache: KvCache; row: number; P: number; slots: number[] }[] = [
      ...keep.map((r) => ({ cache: this.cache, row: r, P, slots: validSlots(this.valid[r]!) })),
      ...joining.map((j) => ({ cache: j.cache, row: j.row, P: j.cache.k[0]!.dims[2]!, slots: validSlots(j.valid) })),
    ];
    const B = srcRows.length;
    // Copy contiguous runs of valid slots at once: [from, to) in the source, starting at `at` in the packed row.
    const withRuns = srcRows.map((r) => ({ ...r, runs: runsOf(r.slots) }));
    const newP = Math.max(0, ...srcRows.map((s) => s.slots.length));
    const alloc = (): Float32Array | Float64Array => (this.dtype === 'float64' ? new Float64Array(B * K! * newP * D!) : new Float32Array(B * K! * newP * D!));
    const next: KvCache = { k: [], v: [] };
    for (let l = 0; l < layers; l++) {
      for (const which of ['k', 'v'] as const) {
        const out = alloc();
        withRuns.forEach((s, b) => {
          const src = s.cache[which][l]!.data as Float32Array;
          for (let h = 0; h < K!; h++) {
            const dstBase = ((b * K! + h) * newP) * D!;
            const srcBase = ((s.row * K! + h) * s.P) * D!;
            for (const [from, to, at] of s.runs) out.set(src.subarray(srcBase + from * D!, srcBase + to * D!), dstBase + at * D!);
          }
        });
        next[which].push(new ort.Tensor(this.dtype, out, [B, K!, newP, D!]));
      }
    }
    this.cache = next;
    this.valid = srcRows.map((s) => { const v = new Uint8Array(newP); v.fill(1, 0, s.slots.length); return v; });
  }
}

function runsOf(slots: readonly number[]): [number, number, number][] {
  const runs: [number, number, number][] = [];
  slots.forEach((j, n) => {
    const last = runs[runs.length - 1];
    if (last && last[1] === j) last[1]++;
    else runs.push([j, j + 1, n]);
  });
  return runs;
}
