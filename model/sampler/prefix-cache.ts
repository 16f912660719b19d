// Prefix KV cache: per key (an episode), the keys/values of a finished generation's prompt and fed tokens, so the
// next request that extends the same sequence prefills only its new tokens against them. Bounded LRU (bytes and
// entries), one weights version at a time. Legend: B batch, K kv heads, L cached slots, P past, S suffix, D head size.
import ort from 'onnxruntime-node';
import type { Joiner } from './kv-batch.js';
import { concatKv } from './kv-batch.js';
import type { KvCache, SampleStep } from '../session.js';

type Floats = Float32Array | Float64Array;
const MASKED = -1e9;

export interface PrefixEntry {
  /** The tokens whose keys/values are cached, in position order. */
  tokens: number[];
  /** Per layer (K, L, D), L = tokens.length. */
  k: Floats[];
  v: Floats[];
  /** Weights version that computed them. */
  version: number;
}

/** A cached prefix a request can start from: the first `reuse` tokens of its prompt need no prefill. */
export interface PrefixHit {
  entry: PrefixEntry;
  reuse: number;
}

export interface PrefixCacheStats {
  entries: number;
  bytes: number;
  /** Requests with a key that started from a cached prefix, and that found none (or one that did not match). */
  hits: number;
  misses: number;
  /** Prompt tokens not prefilled thanks to the cache, and prompt tokens of keyed requests in all. */
  reusedTokens: number;
  promptTokens: number;
}

const bytesOf = (e: PrefixEntry): number => e.k.reduce((n, a) => n + a.byteLength, 0) * 2;

export class PrefixCache {
  /** Map order is recency: the first entry is the least recently stored. */
  private readonly entries = new Map<string, PrefixEntry>();
  private bytes = 0;
  private readonly counts = { hits: 0, misses: 0, reusedTokens: 0, promptTokens: 0 };

  /** `minReuse`: a shorter common prefix is not worth a separate prefill call; the request joins the full prefill. */
  constructor(readonly maxBytes: number, readonly maxEntries: number, readonly minReuse: number) {}

  get stats(): PrefixCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, ...this.counts };
  }

  /**
   * Removes the key's entry and returns how much of `prompt` it covers: the longest common prefix of its tokens and
   * the prompt (a re-encoded action or a truncated history differs from some token on), but at least one prompt
   * token is left to prefill, since the first new token needs the last prompt token's logits. An entry of another
   * weights version, or one that covers less than minReuse tokens, is dropped and the request prefills in full.
   */
  take(key: string, prompt: readonly number[], version: number): PrefixHit | null {
    this.counts.promptTokens += prompt.length;
    const entry = this.entries.get(key);
    if (entry) this.delete(key);
    let reuse = 0;
    if (entry && entry.version === version) {
      const most = Math.min(entry.tokens.length, prompt.length - 1);
      while (reuse < most && entry.tokens[reuse] === prompt[reuse]) reuse++;
    }
    if (!entry || reuse < this.minReuse) {
      this.counts.misses++;
      return null;
    }
    this.counts.hits++;
    this.counts.reusedTokens += reuse;
    return { entry, reuse };
  }

  /** Stores (or replaces) the key's entry as the most recent one, then evicts the oldest until the bounds hold. */
  put(key: string, entry: PrefixEntry): void {
    this.delete(key);
    const bytes = bytesOf(entry);
    if (bytes > this.maxBytes || this.maxEntries < 1) return;
    this.entries.set(key, entry);
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      this.delete(oldest);
    }
  }

  /** Drops the key's entry (its episode ended). */
  release(key: string): void {
    this.delete(key);
  }

  /** Drops every entry (new weights: the cached keys were computed with the old ones). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= bytesOf(e);
  }
}

/**
 * Splits rows that start from cached prefixes into prefill calls of similar suffix lengths (each at most twice the
 * shortest of its call, plus 16): a call pads every row to its longest suffix, and one row whose history was cut to
 * fit the budget (hundreds of new tokens) padded 31 rows of tens of tokens each to hundreds, which made these calls
 * 17x slower than all decode steps together on the library suite.
 */
export function bySuffixLength<T extends { prompt: readonly number[]; hit: PrefixHit }>(hits: readonly T[]): T[][] {
  const len = (h: T): number => h.prompt.length - h.hit.reuse;
  const groups: T[][] = [];
  for (const h of [...hits].sort((a, b) => len(a) - len(b))) {
    const g = groups[groups.length - 1];
    if (g && len(h) <= 2 * len(g[0]!) + 16) g.push(h);
    else groups.push([h]);
  }
  return groups;
}

/**
 * One prefill call for rows that start from cached prefixes: row b's first `reuse` tokens come from its entry as
 * past slots (right-padded to the longest, padding masked), its remaining prompt tokens are the suffix (left-padded,
 * causal, at positions reuse..). `joiner(fresh, b)` then gives the row's past + suffix as a batch joiner.
 */
export function suffixPrefill(hits: readonly { prompt: readonly number[]; hit: PrefixHit }[], layers: number, kvHeads: number, headSize: number, dtype: 'float32' | 'float64'): {
  step: SampleStep;
  joiner: (fresh: KvCache, b: number) => Joiner;
} {
  const B = hits.length, K = kvHeads, D = headSize;
  const P = Math.max(...hits.map((h) => h.hit.reuse));
  const S = Math.max(...hits.map((h) => h.prompt.length - h.hit.reuse));
  const alloc = (n: number): Floats => (dtype === 'float64' ? new Float64Array(n) : new Float32Array(n));
  const past = (which: 'k' | 'v', l: number): ort.Tensor => {
    const out = alloc(B * K * P * D); // (B, K, P, D)
    hits.forEach(({ hit: { entry, reuse } }, b) => {
      const src = entry[which][l]!, L = entry.tokens.length;
      for (let h = 0; h < K; h++) out.set(src.subarray(h * L * D, (h * L + reuse) * D), (b * K + h) * P * D);
    });
    return new ort.Tensor(dtype, out, [B, K, P, D]);
  };
  const pastKv: KvCache = { k: Array.from({ length: layers }, (_, l) => past('k', l)), v: Array.from({ length: layers }, (_, l) => past('v', l)) };
  const tokens = new BigInt64Array(B * S), positions = new BigInt64Array(B * S); // (B, S)
  const bias = alloc(B * S * (P + S)); // (B, S, P+S)
  const valid = hits.map(({ prompt, hit: { reuse } }, b) => {
    const n = prompt.length - reuse, pad = S - n;
    for (let i = 0; i < n; i++) {
      tokens[b * S + pad + i] = BigInt(prompt[reuse + i]!);
      positions[b * S + pad + i] = BigInt(reuse + i);
    }
    for (let i = 0; i < S; i++) {
      const q = (b * S + i) * (P + S);
      for (let j = reuse; j < P; j++) bias[q + j] = MASKED;
      for (let j = 0; j < S; j++) if (j < pad || j > i) bias[q + P + j] = MASKED;
    }
    const v = new Uint8Array(P + S);
    v.fill(1, 0, reuse);
    v.fill(1, P + pad);
    return v;
  });
  let joined: KvCache | null = null; // (B, K, P+S, D), once for all rows
  return {
    step: { tokens, positions, bias, batch: B, steps: S, past: pastKv },
    joiner: (fresh, b) => ({ cache: (joined ??= concatKv(pastKv, fresh)), row: b, valid: valid[b]! }),
  };
}
