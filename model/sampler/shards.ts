// Samplers side by side behind one handle: decoding data-parallel over cores. A batch-32 decode step is a chain of
// small products that onnxruntime's intra-op threads barely split (here 4.1 ms per step on two threads, 4.4 on one), while
// two sampler threads of 16 rows each, one intra-op thread apiece, run a step's 32 rows in about 2 ms when both get
// a core (docs/model.md, "Sampler shards"). Each request goes to the shard with the fewest requests in flight; a
// request with a cacheKey goes back to the shard that kept that key's prefix, so a multi-turn episode keeps its hits.
// Weights go to every shard.
import { addTotals, type PhaseTotals } from '../../runtime/phase-meter.js';
import { ModelOptionError } from '../errors.js';
import { StaleWeightsError } from './errors.js';
import { DEFAULT_SAMPLER_OPTIONS } from './options.js';
import type { SampleOutput } from './sampler.js';
import { ThreadSampler, type SamplerHandle, type ThreadSamplerOptions } from './thread.js';
import type { Weights } from '../session.js';

type Request = Parameters<SamplerHandle['generate']>[0];

export class ShardedSampler implements SamplerHandle {
  private readonly inFlight: number[];
  /** cacheKey -> the shard that holds (or will hold) its prefix, oldest first; at most `maxKeys`. */
  private readonly home = new Map<string, number>();

  constructor(readonly shards: readonly SamplerHandle[], private readonly maxKeys = 4096) {
    if (shards.length < 1) throw new ModelOptionError('shards', 'at least one sampler', shards.length);
    this.inFlight = shards.map(() => 0);
  }

  /**
   * `count` ThreadSamplers of `o`: shard i samples with seed + i, and each takes ceil(maxBatch / count) rows, so the
   * rows decoded at once (and the memory they hold) stay those of one sampler. A shard that cannot start closes the
   * others and fails with its error.
   */
  static async startThreads(count: number, o: ThreadSamplerOptions): Promise<ShardedSampler> {
    if (!Number.isInteger(count) || count < 1) throw new ModelOptionError('shards', 'an integer >= 1', count);
    const base = o.sampler ?? {};
    const maxBatch = Math.ceil((base.maxBatch ?? DEFAULT_SAMPLER_OPTIONS.maxBatch) / count);
    const started = await Promise.allSettled(Array.from({ length: count }, (_, i) => ThreadSampler.start({ ...o, sampler: { ...base, maxBatch, seed: (base.seed ?? 0) + i } })));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await Promise.all(started.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
      throw failed.reason;
    }
    return new ShardedSampler(started.map((r) => (r as PromiseFulfilledResult<ThreadSampler>).value));
  }

  get policyVersion(): number {
    return this.shards[0]!.policyVersion;
  }

  get steps(): number {
    return this.shards.reduce((n, s) => n + s.steps, 0);
  }

  phases(): PhaseTotals {
    return this.shards.reduce<PhaseTotals>((sum, s) => addTotals(sum, s.phases()), {});
  }

  /** Every shard moves to `version`, or none does (an old version is refused before any shard sees it). */
  setWeights(weights: Weights, version: number): void {
    if (version <= this.policyVersion) throw new StaleWeightsError(this.policyVersion, version);
    for (const s of this.shards) s.setWeights(weights, version);
  }

  release(key: string): void {
    const i = this.home.get(key);
    if (i === undefined) return;
    this.home.delete(key);
    this.shards[i]!.release(key);
  }

  async generate(request: Request): Promise<SampleOutput> {
    const i = this.route(request.cacheKey);
    this.inFlight[i]!++;
    try {
      return await this.shards[i]!.generate(request);
    } finally {
      this.inFlight[i]!--;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.close()));
  }

  /** The shard a request goes to: its key's home, else the least busy (lowest index on ties). */
  private route(key: string | undefined): number {
    const known = key === undefined ? undefined : this.home.get(key);
    if (known !== undefined) {
      this.home.delete(key!); // re-inserted below: most recently used last
      this.home.set(key!, known);
      return known;
    }
    let best = 0;
    for (let i = 1; i < this.shards.length; i++) if (this.inFlight[i]! < this.inFlight[best]!) best = i;
    if (key !== undefined) {
      this.home.set(key, best);
      // Keys whose episodes never released them: the oldest go, and their prefixes age out of the shard's own LRU.
      if (this.home.size > this.maxKeys) this.home.delete(this.home.keys().next().value!);
    }
    return best;
  }
}
