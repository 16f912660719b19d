// The running batch's KV cache in preallocated buffers, per layer (B, K, capacity, D), plus per row which slots
// hold its keys. A decode step writes one slot per row in place (the graph returns only new keys/values); rows join
// and leave by repacking (valid slots moved to the front: attention ignores slot order because RoPE is applied
// before caching), and a full buffer grows by an eighth of a power of two (capacityFor). Masked slots cost attention
// reads, never copies.
import ort from 'onnxruntime-node';
import type { KvCache } from '../session.js';

const MASKED = -1e9;
type Floats = Float32Array | Float64Array;

/** Row `row` of a prefill's new keys/values (B', K, S, D), and which of its S slots are real tokens (left padding is not). */
export interface Joiner {
  cache: KvCache;
  row: number;
  valid: Uint8Array;
}

const nextPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

/**
 * Slots for a batch whose longest row needs `n`: n rounded up to an eighth of the power of two above it (at least
 * 16), so capacity grows by 12-25% at a time. Every decode step reads every slot of every row, and doubling left
 * up to half of them masked (a batch-32 generation from 32 to 80 tokens read 128 slots from step 32 on); growing
 * in smaller steps repacks a few more times, each repack copying about what one step reads.
 */
export const capacityFor = (n: number): number => {
  const step = Math.max(16, nextPow2(n) / 8);
  return Math.ceil(n / step) * step;
};

export class KvBatch {
  private k: Floats[] = [];
  private v: Floats[] = [];
  /** Per row: 1 where the slot holds one of its tokens; length = capacity. */
  private valid: Uint8Array[] = [];
  private capacity = 0;
  /** Slots [0, used) have been written for some row; the next decode step writes slot `used`. */
  private used = 0;
  /**
   * The buffers before the last repack, reused by the next one when big enough (a larger buffer holds a smaller
   * batch in its front part): the batch repacks whenever a row leaves or joins (every few steps with many short
   * generations) and when it grows, and allocating (zero-filling) then collecting a fresh (B, K, capacity, D) per
   * layer each time cost about as much as copying. Kept when the batch empties, so the next burst of requests
   * starts in them: a batch-32 generation of 48 tokens repacked 5 times and spent 1.7-16 ms on each, most of it in
   * fresh buffers. So at most two sets are held, three during a repack that outgrows both. Fresh buffers hold
   * 8-row blocks, so a batch that grows by a few rows fits. Slots no row holds keep old keys/values: finite, masked.
   */
  private spare: { k: Floats[]; v: Floats[] } | null = null;

  constructor(readonly layers: number, readonly kvHeads: number, readonly headSize: number, readonly dtype: 'float32' | 'float64', readonly minCapacity = 16) {}

  get rows(): number { return this.valid.length; }
  get slots(): number { return this.capacity; }

  private alloc(n: number): Floats {
    return this.dtype === 'float64' ? new Float64Array(n) : new Float32Array(n);
  }

  /** The buffers as graph feeds (views, no copy): past.<i>.k / past.<i>.v (B, K, capacity, D). */
  feeds(): KvCache {
    const dims = [this.rows, this.kvHeads, this.capacity, this.headSize];
    const n = this.rows * this.kvHeads * this.capacity * this.headSize; // the first B rows of 8-row blocks
    const view = (a: Floats): ort.Tensor => new ort.Tensor(this.dtype, a.length === n ? a : a.subarray(0, n), dims);
    return { k: this.k.map(view), v: this.v.map(view) };
  }

  /** Additive bias (B, 1, capacity+1) for a decode step: each row sees its valid slots and the new token. */
  decodeBias(): Floats {
    const P = this.capacity;
    const bias = this.alloc(this.rows * (P + 1));
    this.valid.forEach((v, r) => { for (let j = 0; j < P; j++) if (!v[j]) bias[r * (P + 1) + j] = MASKED; });
    return bias;
  }

  /** Row r's keys/values (valid slots only, in position order), per layer (K, L, D). */
  rowKv(r: number): { k: Floats[]; v: Floats[]; length: number } {
    return compactRow(this.k, this.v, r, this.capacity, this.valid[r]!, this.kvHeads, this.headSize);
  }

  /** Makes room for one more slot, so the next decode step's keys can be written after it runs. */
  reserve(): void {
    if (this.used >= this.capacity) this.repack([...this.valid.keys()], [], this.used + 1);
  }

  /** After a decode step: writes each row's new key/value (B, K, 1, D) into slot `used`. */
  append(fresh: KvCache): void {
    const { kvHeads: K, headSize: D, capacity: P } = this;
    const j = this.used;
    for (let l = 0; l < this.layers; l++) {
      for (const [dst, src] of [[this.k[l]!, fresh.k[l]!.data as Floats], [this.v[l]!, fresh.v[l]!.data as Floats]] as const) {
        for (let r = 0; r < this.rows; r++) for (let h = 0; h < K; h++) dst.set(src.subarray((r * K + h) * D, (r * K + h + 1) * D), ((r * K + h) * P + j) * D);
      }
    }
    for (const v of this.valid) v[j] = 1;
    this.used++;
  }

  /**
   * Keeps the rows in `keep` (old indices, in the new order) and appends `joining` rows of prefill outputs. Valid
   * slots are packed to the front; capacity becomes capacityFor(the longest row + 1, and at least `atLeast`).
   */
  repack(keep: readonly number[], joining: readonly Joiner[], atLeast = 0): void {
    const { kvHeads: K, headSize: D } = this;
    const srcs: { k: Floats[]; v: Floats[]; row: number; P: number; slots: number[] }[] = [
      ...keep.map((r) => ({ k: this.k, v: this.v, row: r, P: this.capacity, slots: validSlots(this.valid[r]!) })),
      ...joining.map((j) => ({
        k: j.cache.k.map((t) => t.data as Floats), v: j.cache.v.map((t) => t.data as Floats), row: j.row, P: j.cache.k[0]!.dims[2]!, slots: validSlots(j.valid),
      })),
    ];
    const B = srcs.length;
    const longest = Math.max(0, ...srcs.map((s) => s.slots.length));
    const P = B === 0 ? 0 : Math.max(this.minCapacity, capacityFor(Math.max(longest + 1, atLeast)));
    const runs = srcs.map((s) => runsOf(s.slots));
    const need = B * K * P * D, room = Math.ceil(B / 8) * 8 * K * P * D;
    const spare = B > 0 && this.spare && this.spare.k[0]!.length >= need ? this.spare : null;
    const pack = (which: 'k' | 'v', l: number): Floats => {
      const out = spare ? spare[which][l]! : this.alloc(room);
      srcs.forEach((s, b) => {
        const src = s[which][l]!;
        for (let h = 0; h < K; h++) {
          const from0 = (s.row * K + h) * s.P * D, to0 = (b * K + h) * P * D;
          for (const [a, z, at] of runs[b]!) out.set(src.subarray(from0 + a * D, from0 + z * D), to0 + at * D);
        }
      });
      return out;
    };
    const k = Array.from({ length: this.layers }, (_, l) => pack('k', l));
    const v = Array.from({ length: this.layers }, (_, l) => pack('v', l));
    // The set just left becomes the spare, unless the batch emptied into a fresh empty set: then the larger stays.
    if (this.k.length && (spare !== null || this.spare === null || this.k[0]!.length >= this.spare.k[0]!.length)) this.spare = { k: this.k, v: this.v };
    this.k = k;
    this.v = v;
    this.capacity = P;
    this.used = longest;
    this.valid = srcs.map((s) => { const m = new Uint8Array(P); m.fill(1, 0, s.slots.length); return m; });
  }
}

/** Row `row`'s valid slots of per-layer (B, K, P, D) buffers, compacted to (K, L, D) per layer, in slot order. */
export function compactRow(k: readonly Floats[], v: readonly Floats[], row: number, P: number, valid: Uint8Array, kvHeads: number, headSize: number): { k: Floats[]; v: Floats[]; length: number } {
  const K = kvHeads, D = headSize, slots = validSlots(valid), L = slots.length, runs = runsOf(slots);
  const one = (src: Floats): Floats => {
    const out = new (src.constructor as Float32ArrayConstructor)(K * L * D);
    for (let h = 0; h < K; h++) {
      const from0 = (row * K + h) * P * D;
      for (const [a, z, at] of runs) out.set(src.subarray(from0 + a * D, from0 + z * D), (h * L + at) * D);
    }
    return out;
  };
  return { k: k.map(one), v: v.map(one), length: L };
}

/** A joiner's keys/values compacted as compactRow does. */
export function compactJoiner(j: Joiner): { k: Floats[]; v: Floats[]; length: number } {
  const data = (t: ort.Tensor): Floats => t.data as Floats;
  return compactRow(j.cache.k.map(data), j.cache.v.map(data), j.row, j.cache.k[0]!.dims[2]!, j.valid, j.cache.k[0]!.dims[1]!, j.cache.k[0]!.dims[3]!);
}

function validSlots(v: Uint8Array): number[] {
  const out: number[] = [];
  for (let j = 0; j < v.length; j++) if (v[j]) out.push(j);
  return out;
}

/** Contiguous runs of slots: [from, to) in the source, starting at `at` in the packed row. */
function runsOf(slots: readonly number[]): [number, number, number][] {
  const runs: [number, number, number][] = [];
  slots.forEach((j, n) => {
    const last = runs[runs.length - 1];
    if (last && last[1] === j) last[1]++;
    else runs.push([j, j + 1, n]);
  });
  return runs;
}

/** Appends new keys/values to a cache along the slot axis (for simple single-batch callers and tests). */
export function concatKv(past: KvCache, fresh: KvCache): KvCache {
  const cat = (a: ort.Tensor, b: ort.Tensor): ort.Tensor => {
    const [B, K, P, D] = a.dims as number[], S = b.dims[2]!;
    const out = new (a.data.constructor as Float32ArrayConstructor)(B! * K! * (P! + S) * D!);
    const x = a.data as Float32Array, y = b.data as Float32Array;
    for (let r = 0; r < B! * K!; r++) {
      out.set(x.subarray(r * P! * D!, (r + 1) * P! * D!), r * (P! + S) * D!);
      out.set(y.subarray(r * S * D!, (r + 1) * S * D!), (r * (P! + S) + P!) * D!);
    }
    return new ort.Tensor(a.type as 'float32', out, [B!, K!, P! + S, D!]);
  };
  return { k: past.k.map((t, i) => cat(t, fresh.k[i]!)), v: past.v.map((t, i) => cat(t, fresh.v[i]!)) };
}
