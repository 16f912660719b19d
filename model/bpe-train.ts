// Byte-level BPE training with incremental pair counts: each merge touches only the words that
// contain the merged pair, so a few MB train in seconds instead of recounting the corpus per merge.
import { forEachPretoken } from './bpe-pretokenize.js';
import { ModelOptionError } from './errors.js';

export interface BpeTrainOptions {
  /** Number of merges to learn (the vocab grows by one token per merge). */
  merges: number;
  /** First id given to a merged token; ids below it are bytes and special tokens. */
  firstMergeId: number;
  /** Stop early when the most frequent pair occurs fewer times than this. */
  minPairCount?: number;
}

export const DEFAULT_BPE_TRAIN_OPTIONS = { minPairCount: 2 } as const;

export function validateBpeTrainOptions(o: BpeTrainOptions): Required<BpeTrainOptions> {
  const r = { ...DEFAULT_BPE_TRAIN_OPTIONS, ...o };
  if (!Number.isInteger(r.merges) || r.merges < 0) throw new ModelOptionError('merges', 'a non-negative integer', r.merges);
  if (!Number.isInteger(r.firstMergeId) || r.firstMergeId < 256) {
    throw new ModelOptionError('firstMergeId', 'an integer >= 256', r.firstMergeId);
  }
  if (r.firstMergeId + r.merges > PAIR_BASE) {
    throw new ModelOptionError('merges', `at most ${PAIR_BASE - r.firstMergeId} (ids must stay below ${PAIR_BASE})`, r.merges);
  }
  if (!Number.isInteger(r.minPairCount) || r.minPairCount < 1) {
    throw new ModelOptionError('minPairCount', 'a positive integer', r.minPairCount);
  }
  return r;
}

/** Pair (a, b) of token ids packed into one number; ids stay below PAIR_BASE. */
export const PAIR_BASE = 65536;
export const pairKey = (a: number, b: number): number => a * PAIR_BASE + b;

/** Counts pre-tokens of texts (latin1 byte views, see utf8Latin1). Feed documents one at a time. */
export class PretokenCounter {
  readonly counts = new Map<string, number>();
  add(latin1: string): void {
    forEachPretoken(latin1, (p) => this.counts.set(p, (this.counts.get(p) ?? 0) + 1));
  }
}

/**
 * Learns merges from pre-token counts. Returns the merges as a flat list [a0, b0, a1, b1, ...];
 * merge i creates id firstMergeId + i. Ties go to the smaller pair key, so the result depends only
 * on the counts, never on map or file order.
 */
export function trainBpe(counts: ReadonlyMap<string, number>, options: BpeTrainOptions): number[] {
  const o = validateBpeTrainOptions(options);
  const words: number[][] = [];
  const freqs: number[] = [];
  for (const [piece, n] of counts) {
    if (piece.length < 2) continue; // a single byte has no pair to merge
    const w = new Array<number>(piece.length);
    for (let i = 0; i < piece.length; i++) w[i] = piece.charCodeAt(i);
    words.push(w);
    freqs.push(n);
  }
  const pairCount = new Map<number, number>();
  const pairWords = new Map<number, number[]>(); // may hold stale or repeated word indices; checked on use
  for (let wi = 0; wi < words.length; wi++) {
    const w = words[wi]!;
    for (let i = 0; i + 1 < w.length; i++) {
      const k = pairKey(w[i]!, w[i + 1]!);
      pairCount.set(k, (pairCount.get(k) ?? 0) + freqs[wi]!);
      let list = pairWords.get(k);
      if (list === undefined) pairWords.set(k, (list = []));
      if (list[list.length - 1] !== wi) list.push(wi);
    }
  }
  const heap = new PairHeap();
  for (const [k, c] of pairCount) heap.push(c, k);

  const merges: number[] = [];
  const changed = new Set<number>();
  const seen = new Set<number>();
  for (let m = 0; m < o.merges; m++) {
    const best = popValid(heap, pairCount);
    if (best === undefined || best.count < o.minPairCount) break;
    const a = Math.floor(best.key / PAIR_BASE);
    const b = best.key % PAIR_BASE;
    const id = o.firstMergeId + m;
    merges.push(a, b);
    changed.clear();
    seen.clear();
    for (const wi of pairWords.get(best.key) ?? []) {
      if (seen.has(wi)) continue;
      seen.add(wi);
      const w = words[wi]!;
      if (!contains(w, a, b)) continue; // stale entry: an earlier merge consumed the pair
      const f = freqs[wi]!;
      addPairs(w, -f, pairCount, changed);
      const merged = mergeWord(w, a, b, id);
      words[wi] = merged;
      addPairs(merged, f, pairCount, changed);
      for (let i = 0; i + 1 < merged.length; i++) {
        if (merged[i] !== id && merged[i + 1] !== id) continue; // only pairs with the new id are new
        const k = pairKey(merged[i]!, merged[i + 1]!);
        let list = pairWords.get(k);
        if (list === undefined) pairWords.set(k, (list = []));
        if (list[list.length - 1] !== wi) list.push(wi);
      }
    }
    pairCount.delete(best.key);
    pairWords.delete(best.key);
    for (const k of changed) {
      const c = pairCount.get(k) ?? 0;
      if (c > 0) heap.push(c, k);
      else pairCount.delete(k);
    }
  }
  return merges;
}

function contains(w: number[], a: number, b: number): boolean {
  for (let i = 0; i + 1 < w.length; i++) if (w[i] === a && w[i + 1] === b) return true;
  return false;
}

function mergeWord(w: number[], a: number, b: number, id: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < w.length; i++) {
    if (i + 1 < w.length && w[i] === a && w[i + 1] === b) {
      out.push(id);
      i++;
    } else {
      out.push(w[i]!);
    }
  }
  return out;
}

function addPairs(w: number[], delta: number, counts: Map<number, number>, changed: Set<number>): void {
  for (let i = 0; i + 1 < w.length; i++) {
    const k = pairKey(w[i]!, w[i + 1]!);
    counts.set(k, (counts.get(k) ?? 0) + delta);
    changed.add(k);
  }
}

function popValid(heap: PairHeap, counts: Map<number, number>): { count: number; key: number } | undefined {
  while (heap.size > 0) {
    const top = heap.pop();
    if (counts.get(top.key) === top.count) return top; // entries with an outdated count are skipped
  }
  return undefined;
}

/** Max-heap on (count desc, key asc) over two parallel arrays. */
class PairHeap {
  private c: number[] = [];
  private k: number[] = [];
  get size(): number {
    return this.c.length;
  }
  private above(i: number, j: number): boolean {
    const ci = this.c[i]!, cj = this.c[j]!;
    return ci > cj || (ci === cj && this.k[i]! < this.k[j]!);
  }
  private swap(i: number, j: number): void {
    const c = this.c[i]!, k = this.k[i]!;
    this.c[i] = this.c[j]!;
    this.k[i] = this.k[j]!;
    this.c[j] = c;
    this.k[j] = k;
  }
  push(count: number, key: number): void {
    this.c.push(count);
    this.k.push(key);
    let i = this.c.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): { count: number; key: number } {
    const top = { count: this.c[0]!, key: this.k[0]! };
    const lastC = this.c.pop()!, lastK = this.k.pop()!;
    if (this.c.length > 0) {
      this.c[0] = lastC;
      this.k[0] = lastK;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < this.c.length && this.above(l, m)) m = l;
        if (r < this.c.length && this.above(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}
