// What a Sampler is asked and what it answers: its options (defaults and validation naming the field), a request,
// and the output with per-token log-probs and versions. Shared by the Sampler and the thread sampler.
import { ModelOptionError } from '../errors.js';

/** Text in and out; the project's Tokenizer satisfies it. */
export interface TextCodec {
  encode(text: string): number[];
  decode(ids: ArrayLike<number>): string;
}

export interface SamplerOptions {
  /** Most rows decoded together; later requests wait for a free row. */
  maxBatch?: number;
  /** Token ids that end a generation (e.g. the end-of-turn special token); they are kept in the output tokens. */
  stopTokens?: number[];
  seed?: number;
  /**
   * Bake each weights version into the decode graph (ModelSession.bakeWeights): sampling 1.2x (batch 32) to 1.9x
   * (batch 1) faster here, for 60-140 ms of building per version (started when the weights arrive, awaited before their first decode step, so
   * every decode step of a version runs the same graph and results do not depend on timing). The weight arrays
   * must then not change in place: new weights come through setWeights.
   */
  bakeWeights?: boolean;
  /**
   * Prefix KV cache (prefix-cache.ts) for requests with a cacheKey: bytes of keys/values kept over all keys (0 = off)
   * and most keys kept; the least recently stored go first. 512 MiB holds 128 of the base model's 1024-token prompts
   * (4 KiB per token), twice the 64 episodes `spade eval` plays at a time.
   */
  prefixCacheBytes?: number;
  prefixCacheEntries?: number;
  /** A cached prefix shorter than this many tokens is not used (the request joins the batch's full prefill). */
  prefixMinReuse?: number;
  /**
   * Most attention cells, rows x (padded prompt length)^2, one full prefill computes at once: waiting prompts are
   * prefilled shortest first in groups within it (a longer prompt alone). Each attention tensor of a prefill holds
   * heads x cells values, and onnxruntime's arena keeps the largest run's blocks for good: 32 rows of 1300 tokens
   * in one call took the sampler to 3.5 GB resident (docs/reliability.md, resource limits).
   */
  prefillCells?: number;
}

export const DEFAULT_SAMPLER_OPTIONS: Required<SamplerOptions> = { maxBatch: 32, stopTokens: [], seed: 0, bakeWeights: true,
  prefixCacheBytes: 512 * 2 ** 20, prefixCacheEntries: 1024, prefixMinReuse: 8, prefillCells: 2 ** 22,
};

export function validateSamplerOptions(o: SamplerOptions = {}): Required<SamplerOptions> {
  const r = { ...DEFAULT_SAMPLER_OPTIONS, ...o };
  if (!Number.isInteger(r.maxBatch) || r.maxBatch < 1) throw new ModelOptionError('maxBatch', 'a positive integer', r.maxBatch);
  if (!Array.isArray(r.stopTokens) || r.stopTokens.some((t) => !Number.isInteger(t))) throw new ModelOptionError('stopTokens', 'an array of token ids', r.stopTokens);
  if (!Number.isInteger(r.seed)) throw new ModelOptionError('seed', 'an integer', r.seed);
  if (typeof r.bakeWeights !== 'boolean') throw new ModelOptionError('bakeWeights', 'a boolean', r.bakeWeights);
  if (!Number.isInteger(r.prefixCacheBytes) || r.prefixCacheBytes < 0) throw new ModelOptionError('prefixCacheBytes', 'an integer >= 0', r.prefixCacheBytes);
  if (!Number.isInteger(r.prefixCacheEntries) || r.prefixCacheEntries < 0) throw new ModelOptionError('prefixCacheEntries', 'an integer >= 0', r.prefixCacheEntries);
  if (!Number.isInteger(r.prefixMinReuse) || r.prefixMinReuse < 1) throw new ModelOptionError('prefixMinReuse', 'a positive integer', r.prefixMinReuse);
  if (!Number.isInteger(r.prefillCells) || r.prefillCells < 1) throw new ModelOptionError('prefillCells', 'a positive integer', r.prefillCells);
  return r;
}

export interface SampleRequest {
  /** Token ids, or text when the sampler has a codec. */
  prompt: number[] | string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** Strings that end the generation; the text is cut before the first one. */
  stop?: string[];
  signal?: AbortSignal;
  /**
   * Keeps this generation's keys/values under the key when it ends (stop, length or context), and starts from the
   * key's cached ones when its prompt begins with the same tokens (e.g. one key per episode: each turn's prompt
   * extends the last). Results equal a full prefill's within float rounding.
   */
  cacheKey?: string;
}

export type FinishReason = 'stop' | 'length' | 'context' | 'cancelled';

export interface SampleOutput {
  text: string;
  tokens: number[];
  /** Per token: log π(token) at temperature 1, the quantity the training graph recomputes. */
  logprobs: number[];
  /** Per token: log-probability under the distribution actually drawn from (temperature, top-p). */
  sampleLogprobs: number[];
  /** Per token: the weights version that produced it. */
  versions: number[];
  /** Version of the first token (the versions list says whether a swap happened mid-generation). */
  version: number;
  finishReason: FinishReason;
}
