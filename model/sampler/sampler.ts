// Batched generation over concurrent requests: a request that arrives while a batch runs is prefilled and joins at
// the next decode step; weights swap only between steps, and every token records the policy version that sampled it.
import { KvBatch, compactJoiner, type Joiner } from './kv-batch.js';
import { PrefixCache, bySuffixLength, suffixPrefill, type PrefixCacheStats, type PrefixHit } from './prefix-cache.js';
import { byPrefillCells } from './prefill-groups.js';
import { ModelOptionError } from '../errors.js';
import { SamplerClosedError, StaleWeightsError } from './errors.js';
import type { KvCache, ModelSession, Weights } from '../session.js';
import { pickFromProbs, pickToken, seededUniform, type PickOptions } from './token-pick.js';
import { forwardFlops } from '../flops.js';
import { PhaseMeter, type PhaseTotals } from '../../runtime/phase-meter.js';
import {
  validateSamplerOptions, type FinishReason, type SampleOutput, type SampleRequest, type SamplerOptions, type TextCodec,
} from './options.js';

export {
  DEFAULT_SAMPLER_OPTIONS, validateSamplerOptions, type FinishReason, type SampleOutput, type SampleRequest, type SamplerOptions, type TextCodec,
} from './options.js';

interface Row {
  req: Required<Omit<SampleRequest, 'signal' | 'prompt' | 'cacheKey'>> & { signal?: AbortSignal; cacheKey?: string };
  prompt: number[];
  out: SampleOutput;
  /** Tokens in the cache so far; the next fed token sits at this position. */
  len: number;
  last: number;
  /** Weights version of the keys/values in the cache (a row that runs across a swap holds two and is not kept). */
  kvVersion: number;
  done: FinishReason | null;
  settled: boolean;
  resolve: (o: SampleOutput) => void;
  reject: (e: unknown) => void;
}

/** Per admitted row: the prefill output holding its first token's log-probs (row b), and its keys/values. */
type Prefilled = Map<Row, { out: Logits; b: number; slot: Joiner }>;
/** A step's log-probs and each row's distribution at its temperature (session.ts SampleResult). */
type Logits = { logpLast: Float32Array | Float64Array; probsLast: Float32Array | Float64Array };

export class Sampler {
  readonly options: Required<SamplerOptions>;
  private weights: Weights;
  private version: number;
  private next: { weights: Weights; version: number } | null = null;
  private readonly pending: Row[] = [];
  private rows: Row[] = [];
  /** Rows taken from pending whose prefill is in flight. */
  private admitting: Row[] = [];
  private batch: KvBatch;
  private readonly prefix: PrefixCache | null;
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly uniform: () => number;
  /** Decode steps run so far (a clock for tests and metrics). */
  steps = 0;
  private readonly meter = new PhaseMeter();
  /** Called after every decode step with the step count; lets callers act between steps without polling. */
  onStep: ((steps: number) => void) | null = null;
  /** Why the last weights version could not be baked (steps then feed the weights, as without baking). */
  bakeError: unknown = null;

  constructor(private readonly session: ModelSession, weights: Weights, version: number, private readonly codec: TextCodec | null = null, options: SamplerOptions = {}) {
    this.options = validateSamplerOptions(options);
    session.checkWeights(weights); // weights that do not fit the config fail here, not at the first step
    this.weights = weights;
    this.version = version;
    this.uniform = seededUniform(this.options.seed);
    const c = session.config;
    this.batch = new KvBatch(c.layers, c.kvHeads, c.headDim, session.dtype);
    const o = this.options;
    this.prefix = o.prefixCacheBytes > 0 && o.prefixCacheEntries > 0 ? new PrefixCache(o.prefixCacheBytes, o.prefixCacheEntries, o.prefixMinReuse) : null;
    void this.bake(weights);
  }

  /** Starts (or joins) baking; resolves once the decode graph for these weights is ready or failed (then fed). */
  private bake(weights: Weights): Promise<void> {
    if (!this.options.bakeWeights) return Promise.resolve();
    return this.session.bakeWeights(weights).then(() => { this.bakeError = null; }, (err: unknown) => { this.bakeError = err; });
  }

  get policyVersion(): number { return this.next?.version ?? this.version; }
  get activeRows(): number { return this.rows.length; }
  get prefixStats(): PrefixCacheStats | null { return this.prefix?.stats ?? null; }
  /** Time, tokens and FLOPs of its prefill and decode calls so far. */
  phases(): PhaseTotals { return this.meter.snapshot(); }

  /** Drops the keys/values kept under `key` (its episode ended); a running request with the key still keeps its own. */
  release(key: string): void { this.prefix?.release(key); }

  /** New weights take effect before the next step; tokens already sampled keep their version. */
  setWeights(weights: Weights, version: number): void {
    if (version <= this.policyVersion) throw new StaleWeightsError(this.policyVersion, version);
    this.next = { weights, version };
    void this.bake(weights);
  }

  /** Resolves when the generation ends (also when cancelled); rejects on bad requests, close() or engine failure. */
  generate(request: SampleRequest): Promise<SampleOutput> {
    if (this.closed) return Promise.reject(new SamplerClosedError());
    let req: Row['req'], prompt: number[];
    try {
      ({ req, prompt } = this.validateRequest(request));
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      const row: Row = {
        req, prompt, len: 0, last: -1, kvVersion: -1, done: null, settled: false, resolve, reject,
        out: { text: '', tokens: [], logprobs: [], sampleLogprobs: [], versions: [], version: -1, finishReason: 'length' },
      };
      if (req.signal?.aborted) return this.finish(row, 'cancelled');
      req.signal?.addEventListener('abort', () => {
        if (row.done) return;
        const waiting = this.pending.indexOf(row);
        if (waiting >= 0) {
          this.pending.splice(waiting, 1);
          this.finish(row, 'cancelled');
        } else row.done = 'cancelled'; // running: dropped before the next step
      }, { once: true });
      this.pending.push(row);
      this.kick();
    });
  }

  private validateRequest(request: SampleRequest): { req: Row['req']; prompt: number[] } {
    const req = {
      temperature: request.temperature ?? 1, topP: request.topP ?? 1, maxTokens: request.maxTokens ?? 64, stop: request.stop ?? [],
      ...(request.signal ? { signal: request.signal } : {}), ...(request.cacheKey !== undefined ? { cacheKey: request.cacheKey } : {}),
    };
    if (req.cacheKey !== undefined && (typeof req.cacheKey !== 'string' || req.cacheKey === '')) throw new ModelOptionError('cacheKey', 'a non-empty string', req.cacheKey);
    if (!(req.temperature >= 0)) throw new ModelOptionError('temperature', 'a number >= 0', req.temperature);
    if (!(req.topP > 0 && req.topP <= 1)) throw new ModelOptionError('topP', 'a number in (0, 1]', req.topP);
    if (!Number.isInteger(req.maxTokens) || req.maxTokens < 1) throw new ModelOptionError('maxTokens', 'a positive integer', req.maxTokens);
    if (!Array.isArray(req.stop) || req.stop.some((x) => typeof x !== 'string' || x === '')) throw new ModelOptionError('stop', 'an array of non-empty strings', req.stop);
    let prompt: number[];
    if (typeof request.prompt === 'string') {
      if (!this.codec) throw new ModelOptionError('prompt', 'token ids (this sampler has no text codec)', 'a string');
      prompt = this.codec.encode(request.prompt);
    } else prompt = request.prompt;
    const { contextLength: ctx, vocab } = this.session.config;
    if (!Array.isArray(prompt) || prompt.length < 1 || prompt.length >= ctx) throw new ModelOptionError('prompt', `1 to ${ctx - 1} tokens`, `${prompt?.length} tokens`);
    if (prompt.some((t) => !Number.isInteger(t) || t < 0 || t >= vocab)) throw new ModelOptionError('prompt', `token ids in [0, ${vocab})`, 'an id out of range');
    return { req, prompt };
  }

  private kick(): void {
    // Errors reach the requests through reject(); the loop's own promise never rejects.
    // The loop starts after the current event-loop turn, so that requests sent together (a burst of generate calls,
    // or the messages a sampler thread finds queued) share the first prefill instead of the first one going alone.
    this.running ??= new Promise<void>((started) => setImmediate(started)).then(() => this.loop()).finally(() => {
      this.running = null;
      if (this.pending.length && !this.closed) this.kick();
    });
  }

  /** Stops taking requests; waiting and running ones end with SamplerClosedError. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private finish(row: Row, reason: FinishReason): void {
    row.done = reason;
    row.out.finishReason = reason;
    if (this.codec) {
      const ids = row.out.tokens.filter((t) => !this.options.stopTokens.includes(t));
      let text = this.codec.decode(ids);
      const cut = Math.min(...row.req.stop.map((s) => text.indexOf(s)).filter((i) => i >= 0));
      if (Number.isFinite(cut)) text = text.slice(0, cut);
      row.out.text = text;
    }
    row.settled = true;
    row.resolve(row.out);
  }

  private fail(rows: Row[], err: unknown): void {
    for (const r of rows) if (!r.settled) { r.settled = true; r.reject(err); }
  }

  private sample(row: Row, out: Logits, offset: number): void {
    const V = this.session.config.vocab;
    const view = out.logpLast.subarray(offset * V, (offset + 1) * V);
    const pick = row.req.temperature === 0 ? pickToken(view, row.req as PickOptions, this.uniform) : pickFromProbs(out.probsLast.subarray(offset * V, (offset + 1) * V), row.req.topP, this.uniform);
    row.out.tokens.push(pick.token);
    row.out.logprobs.push(view[pick.token]!);
    row.out.sampleLogprobs.push(pick.sampleLogprob);
    row.out.versions.push(this.version);
    if (row.out.version < 0) row.out.version = this.version;
    row.last = pick.token;
    if (this.options.stopTokens.includes(pick.token)) row.done = 'stop';
    else if (row.req.stop.length && this.codec) {
      const text = this.codec.decode(row.out.tokens);
      if (row.req.stop.some((s) => text.includes(s))) row.done = 'stop';
    }
    if (!row.done && row.out.tokens.length >= row.req.maxTokens) row.done = 'length';
    if (!row.done && row.len >= this.session.config.contextLength) row.done = 'context';
  }

  private async loop(): Promise<void> {
    try {
      while (!this.closed && (this.pending.length || this.rows.length)) {
        if (this.next) {
          ({ weights: this.weights, version: this.version } = this.next);
          this.next = null;
          this.prefix?.clear(); // computed with the old weights
        }
        const joining = await this.admit();
        for (const j of joining) {
          if (!j.row.done) continue;
          // Finished on its first token.
          this.keepPrefix(j.row, () => compactJoiner(j.slot));
          this.finish(j.row, j.row.done);
        }
        const joiners = joining.filter((j) => !j.row.done);
        const keep = this.rows.flatMap((r, i) => (r.done ? [] : [i]));
        this.rows.forEach((r, i) => {
          if (!r.done) return;
          this.keepPrefix(r, () => this.batch.rowKv(i));
          this.finish(r, r.done);
        });
        if (keep.length !== this.rows.length || joiners.length) {
          this.batch.repack(keep, joiners.map((j) => j.slot));
          this.rows = [...keep.map((i) => this.rows[i]!), ...joiners.map((j) => j.row)];
        }
        if (this.rows.length) await this.decode();
      }
    } catch (err) {
      this.fail([...this.rows, ...this.pending.splice(0), ...this.admitting], err);
      this.rows = [];
      this.batch.repack([], []);
    } finally {
      if (this.closed) {
        for (const r of this.rows) if (r.done && !r.settled) this.finish(r, r.done); // ended before close: keep the result
        this.fail([...this.rows, ...this.pending.splice(0)], new SamplerClosedError());
        this.rows = [];
      }
    }
  }

  /**
   * Prefills waiting requests up to maxBatch rows in one call, left-padded to the longest prompt (padding is
   * masked and never becomes a valid cache slot), and samples each one's first token.
   */
  private async admit(): Promise<{ row: Row; slot: Joiner }[]> {
    const rows: Row[] = [];
    while (this.pending.length && this.rows.length + rows.length < this.options.maxBatch) {
      const row = this.pending.shift()!;
      if (row.done) this.finish(row, row.done);
      else rows.push(row);
    }
    if (!rows.length) return [];
    this.admitting = rows;
    const hits = new Map<Row, PrefixHit>();
    for (const row of rows) {
      const hit = row.req.cacheKey !== undefined ? this.prefix?.take(row.req.cacheKey, row.prompt, this.version) : null;
      if (hit) hits.set(row, hit);
    }
    const ran: Prefilled = new Map();
    for (const group of bySuffixLength([...hits].map(([row, hit]) => ({ row, prompt: row.prompt, hit })))) await this.prefillSuffixes(group, ran);
    for (const group of byPrefillCells(rows.filter((r) => !hits.has(r)), this.options.prefillCells)) await this.prefill(group, ran);
    this.admitting = [];
    return rows.map((row) => {
      const { out, b, slot } = ran.get(row)!;
      row.len = row.prompt.length;
      row.kvVersion = this.version;
      if (!row.done) this.sample(row, out, b); // cancelled during its prefill: no token
      return { row, slot };
    });
  }

  /** Rows that start from a cached prefix: one call over their new tokens against their cached keys/values. */
  private async prefillSuffixes(hits: { row: Row; prompt: number[]; hit: PrefixHit }[], ran: Prefilled): Promise<void> {
    const c = this.session.config;
    const { step, joiner } = suffixPrefill(hits, c.layers, c.kvHeads, c.headDim, this.session.dtype);
    const r = await this.measured('prefill', step.batch, step.steps, () => this.session.step({ ...step, invTemp: this.invTemps(hits.map((h) => h.row)) }, this.weights));
    hits.forEach(({ row }, b) => ran.set(row, { out: r, b, slot: joiner(r.fresh, b) }));
  }

  /** Full prefill, as before the prefix cache. */
  private async prefill(rows: Row[], ran: Prefilled): Promise<void> {
    const B = rows.length, S = Math.max(...rows.map((r) => r.prompt.length));
    const tokens = new BigInt64Array(B * S), positions = new BigInt64Array(B * S);
    const bias = this.session.dtype === 'float64' ? new Float64Array(B * S * S) : new Float32Array(B * S * S);
    const valid = rows.map((r, b) => {
      const pad = S - r.prompt.length;
      r.prompt.forEach((tok, i) => {
        tokens[b * S + pad + i] = BigInt(tok);
        positions[b * S + pad + i] = BigInt(i);
      });
      for (let i = 0; i < S; i++) for (let j = 0; j < S; j++) if (j < pad || j > i) bias[(b * S + i) * S + j] = -1e9;
      const v = new Uint8Array(S);
      v.fill(1, pad);
      return v;
    });
    const r = await this.measured('prefill', B, S, () => this.session.step({ tokens, positions, bias, batch: B, steps: S, past: this.session.emptyCache(B), invTemp: this.invTemps(rows) }, this.weights));
    rows.forEach((row, b) => ran.set(row, { out: r, b, slot: { cache: r.fresh, row: b, valid: valid[b]! } }));
  }

  /** Stores a finished row's keys/values (prompt + fed tokens) under its key, when they are all of the current weights. */
  private keepPrefix(row: Row, kv: () => { k: (Float32Array | Float64Array)[]; v: (Float32Array | Float64Array)[]; length: number }): void {
    if (!this.prefix || row.req.cacheKey === undefined || row.done === 'cancelled' || row.kvVersion !== this.version) return;
    const c = kv();
    const tokens = [...row.prompt, ...row.out.tokens].slice(0, row.len);
    if (c.length === tokens.length) this.prefix.put(row.req.cacheKey, { tokens, k: c.k, v: c.v, version: this.version });
  }

  /** 1/temperature per row, for the step's probs_last (greedy rows: 1, unused; capped so float32 holds it). */
  private invTemps(rows: Row[]): Float32Array | Float64Array {
    const inv = this.session.dtype === 'float64' ? new Float64Array(rows.length) : new Float32Array(rows.length);
    rows.forEach((r, b) => (inv[b] = r.req.temperature > 0 ? Math.min(1 / r.req.temperature, 1e30) : 1));
    return inv;
  }

  /** A model call, charged to its phase with its FLOPs (rows x steps tokens, each attending to `attended` positions). */
  private measured<T>(phase: 'prefill' | 'decode', rows: number, steps: number, call: () => Promise<T>, attended = steps): Promise<T> {
    return this.meter.measure(phase, { tokens: rows * steps, flops: forwardFlops(this.session.config, rows * steps, attended) }, call);
  }

  private async decode(): Promise<void> {
    await this.bake(this.weights); // at once when baked; another sampler on this session may have baked other weights
    const B = this.rows.length;
    this.batch.reserve();
    const r = await this.measured('decode', B, 1, () => this.session.step({
      tokens: BigInt64Array.from(this.rows, (row) => BigInt(row.last)),
      positions: BigInt64Array.from(this.rows, (row) => BigInt(row.len)),
      bias: this.batch.decodeBias(), batch: B, steps: 1, past: this.batch.feeds(), invTemp: this.invTemps(this.rows),
    }, this.weights), this.batch.slots + 1);
    this.batch.append(r.fresh);
    this.steps++;
    this.rows.forEach((row, b) => {
      row.len++;
      if (!row.done) this.sample(row, r, b); // a row cancelled mid-step ignores its token
    });
    this.onStep?.(this.steps);
  }
}
