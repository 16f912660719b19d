// Compiled decoder graphs on onnxruntime: a training step (log-probs + parameter gradients for an upstream dlogp), the
// same step in two phases (forward, then backward for a dlogp chosen from its log-probs: two-phase.ts), a scoring
// pass (log-probs only) and a sampling step (prefill or decode against a KV cache). Weights are feeds, so new weights
// need no rebuild.
// Legend: B batch, T time, S new tokens, P cached tokens, K kv heads, D head size, V vocab.
import ort from 'onnxruntime-node';
import { buildSamplingGraph, buildTrainingGraph, parameterShapes } from './decoder.js';
import { validateDecoderConfig, type DecoderConfig, type ResolvedDecoderConfig } from './decoder-config.js';
import { BakedDecode } from './baked-decode.js';
import { ModelOptionError } from './errors.js';
import { GraphRunError, GraphRunner, emit, type RunnerOptions } from './graph/index.js';
import { TwoPhaseRunners, type ForwardResult, type SavedTensors } from './two-phase.js';

export type Weights = Map<string, Float32Array | Float64Array>;

export interface ModelSessionOptions extends RunnerOptions {
  /** float32 in production; float64 for gradient checks (weights and float feeds must then be Float64Array). */
  dtype?: 'float32' | 'float64';
  /**
   * Which graphs to compile: 'score' is the training graph's forward half, emitted from the same definition; 'split'
   * the training graph cut in two for forward()/backward() (compiled on first use when not asked for here).
   */
  graphs?: GraphKind[];
  /**
   * Decode steps of at most this many rows run on a single-threaded copy of the decode graph (0: never). Such a
   * step is a chain of small matrix-vector products, too short to repay waking a second thread: here (2 shared
   * cores, load 4-5) batch 1 took 0.64 ms on one thread and 0.76 ms on two, batch 8 1.48 vs 1.68 ms.
   */
  singleThreadDecodeRows?: number;
}

export type GraphKind = 'train' | 'score' | 'sample' | 'split';
const KINDS: readonly GraphKind[] = ['train', 'score', 'sample', 'split'];

export const DEFAULT_MODEL_SESSION_OPTIONS = { dtype: 'float32' as const, graphs: ['train', 'score', 'sample'] as GraphKind[], singleThreadDecodeRows: 8 };

export function validateModelSessionOptions(o: ModelSessionOptions = {}): Required<Pick<ModelSessionOptions, 'dtype' | 'graphs' | 'singleThreadDecodeRows'>> & RunnerOptions {
  const r = { ...DEFAULT_MODEL_SESSION_OPTIONS, ...o };
  if (!Number.isInteger(r.singleThreadDecodeRows) || r.singleThreadDecodeRows < 0) throw new ModelOptionError('singleThreadDecodeRows', 'an integer >= 0', r.singleThreadDecodeRows);
  if (r.dtype !== 'float32' && r.dtype !== 'float64') throw new ModelOptionError('dtype', "'float32' or 'float64'", r.dtype);
  if (!Array.isArray(r.graphs) || r.graphs.some((g) => !KINDS.includes(g))) throw new ModelOptionError('graphs', "a list of 'train' | 'score' | 'sample' | 'split'", r.graphs);
  return r;
}

export interface TrainBatch {
  /** Token ids, row-major (B, T). */
  tokens: BigInt64Array;
  batch: number;
  time: number;
  /** (B, T-1): 1 where the log-prob of token t+1 counts. */
  mask: Float32Array | Float64Array;
  /** (B, T-1): d objective / d logp. */
  dlogp: Float32Array | Float64Array;
  /** (B): 1/temperature of each row's distribution, every value > 0; absent = all 1 (the model's own distribution). */
  invTemp?: Float32Array | Float64Array;
}

export interface TrainResult {
  /** (B, T-1): log-prob of token t+1 given tokens 0..t. */
  logp: Float32Array | Float64Array;
  /** Masked mean negative log-likelihood (a diagnostic; gradients follow dlogp, not this). */
  loss: number;
  grads: Map<string, Float32Array | Float64Array>;
}

/** Per layer (B, K, P, D) keys and values, as returned by the previous step. */
export interface KvCache {
  k: ort.Tensor[];
  v: ort.Tensor[];
}

export interface SampleStep {
  tokens: BigInt64Array; // (B, S)
  positions: BigInt64Array; // (B, S)
  /** (B, S, P+S): 0 to attend, -1e9 to mask. */
  bias: Float32Array | Float64Array;
  batch: number;
  steps: number;
  past: KvCache;
  /** (B): 1/temperature of each row, for `probsLast`; absent = all 1. */
  invTemp?: Float32Array | Float64Array;
}

export interface SampleResult {
  logpLast: Float32Array | Float64Array; // (B, V)
  /** (B, V): each row's distribution at its temperature (step.invTemp), what the sampler draws from. */
  probsLast: Float32Array | Float64Array;
  /** Keys/values of the S new tokens only (B, K, S, D); append them to the cache (KvBatch, or concatKv). */
  fresh: KvCache;
}

export class ModelSession {
  readonly shapes: Map<string, number[]>;
  private weightCache = new Map<string, { src: Float32Array | Float64Array; t: ort.Tensor }>();

  private constructor(
    readonly config: ResolvedDecoderConfig,
    readonly dtype: 'float32' | 'float64',
    readonly trainRunner: GraphRunner | null,
    readonly scoreRunner: GraphRunner | null,
    readonly sampleRunner: GraphRunner | null,
    /** The sampling graph specialised to S = 1 (decode steps); `sampleRunner` serves prefills. */
    readonly decodeRunner: GraphRunner | null = null,
    /** The decode graph on one intra-op thread, for steps of at most `singleThreadDecodeRows` rows (null: decodeRunner serves all). */
    readonly smallDecodeRunner: GraphRunner | null = null,
    readonly singleThreadDecodeRows = 0,
    private readonly baked: BakedDecode | null = null,
    private readonly runnerOptions: RunnerOptions = {},
    private twoPhase: Promise<TwoPhaseRunners> | null = null,
  ) {
    this.shapes = parameterShapes(config);
  }

  static async create(config: DecoderConfig, options: ModelSessionOptions = {}): Promise<ModelSession> {
    const c = validateDecoderConfig(config);
    const o = validateModelSessionOptions(options);
    // onnxruntime's extended fusions (QuickGelu for x·sigmoid(x)) have float32 kernels only.
    if (o.dtype === 'float64' && options.graphOptimizationLevel === undefined) o.graphOptimizationLevel = 'basic';
    let train: GraphRunner | null = null, score: GraphRunner | null = null, sample: GraphRunner | null = null, decode: GraphRunner | null = null;
    let smallDecode: GraphRunner | null = null;
    if (o.graphs.includes('train') || o.graphs.includes('score')) {
      const t = buildTrainingGraph(c, o.dtype);
      if (o.graphs.includes('train')) train = await GraphRunner.create(emit(t.graph, t.outputs, 'decoder-train'), o);
      // Emission keeps only what logp and loss need, so this is the forward pass alone.
      if (o.graphs.includes('score')) score = await GraphRunner.create(emit(t.graph, { logp: t.outputs['logp']!, loss: t.outputs['loss']! }, 'decoder-score'), o);
    }
    if (o.graphs.includes('sample')) {
      const s = buildSamplingGraph(c, o.dtype);
      sample = await GraphRunner.create(emit(s.graph, s.outputs, 'decoder-sample'), o);
      const d = buildSamplingGraph(c, o.dtype, { decode: true });
      const decodeGraph = emit(d.graph, d.outputs, 'decoder-decode');
      decode = await GraphRunner.create(decodeGraph, o);
      if (o.singleThreadDecodeRows > 0 && o.intraOpNumThreads !== 1) smallDecode = await GraphRunner.create(decodeGraph, { ...o, intraOpNumThreads: 1 });
    }
    const baked = decode ? new BakedDecode(c, o.dtype, o, smallDecode !== null) : null;
    const split = o.graphs.includes('split') ? await TwoPhaseRunners.create(c, o.dtype, o) : null;
    return new ModelSession(c, o.dtype, train, score, sample, decode, smallDecode, o.singleThreadDecodeRows, baked, o, split && Promise.resolve(split));
  }

  /** Wraps each weight array once; the tensor views the caller's array, so in-place optimizer updates are seen. */
  /** Throws ModelOptionError naming the first parameter missing from `weights` or of another size than its shape. */
  checkWeights(weights: Weights): void {
    for (const [name, shape] of this.shapes) {
      const w = weights.get(name);
      const size = shape.reduce((p, q) => p * q, 1);
      if (w === undefined || w.length !== size) throw new ModelOptionError(`weights.${name}`, `${size} values (shape [${shape.join(', ')}])`, w === undefined ? 'missing' : `${w.length} values`);
    }
  }

  private weightFeeds(weights: Weights): Record<string, ort.Tensor> {
    const feeds: Record<string, ort.Tensor> = {};
    for (const [name, shape] of this.shapes) {
      const src = weights.get(name);
      if (!src) throw new GraphRunError(`missing weight ${name}`, { input: name });
      const hit = this.weightCache.get(name);
      if (hit && hit.src === src) feeds[name] = hit.t;
      else {
        const t = new ort.Tensor(this.dtype, src, shape);
        this.weightCache.set(name, { src, t });
        feeds[name] = t;
      }
    }
    return feeds;
  }

  async train(batch: TrainBatch, weights: Weights): Promise<TrainResult> {
    if (!this.trainRunner) throw new GraphRunError('this session was created without the training graph');
    const out = await this.trainRunner.run(this.batchFeeds(batch, weights, true));
    const grads = new Map<string, Float32Array | Float64Array>();
    for (const name of this.shapes.keys()) grads.set(name, out[`grad.${name}`]!.data as Float32Array);
    return { logp: out['logp']!.data as Float32Array, loss: Number(out['loss']!.data[0]), grads };
  }

  /** Log-probs and loss without gradients (dlogp is not needed and may be omitted). */
  async score(batch: Omit<TrainBatch, 'dlogp'> & { dlogp?: TrainBatch['dlogp'] }, weights: Weights): Promise<Omit<TrainResult, 'grads'>> {
    if (!this.scoreRunner) throw new GraphRunError('this session was created without the scoring graph');
    const out = await this.scoreRunner.run(this.batchFeeds(batch, weights, false));
    return { logp: out['logp']!.data as Float32Array, loss: Number(out['loss']!.data[0]) };
  }

  /** The training graph's forward half: log-probs, loss, and what backward() needs to give this batch's gradients. */
  async forward(batch: Omit<TrainBatch, 'dlogp'> & { dlogp?: TrainBatch['dlogp'] }, weights: Weights): Promise<ForwardResult> {
    const feeds = this.batchFeeds(batch, weights, false);
    return (await this.splitRunners()).forward(feeds, batch.batch, batch.time);
  }

  /** Parameter gradients for `batch.dlogp`; `batch` is the one `saved` came from (tokens, mask, temperatures). */
  async backward(saved: SavedTensors, batch: TrainBatch, weights: Weights): Promise<Map<string, Float32Array | Float64Array>> {
    if (batch.batch !== saved.batch || batch.time !== saved.time) throw new ModelOptionError('batch', `the forward pass's shape ${saved.batch} x ${saved.time}`, `${batch.batch} x ${batch.time}`);
    return (await this.splitRunners()).backward(saved, this.batchFeeds(batch, weights, true));
  }

  private splitRunners(): Promise<TwoPhaseRunners> {
    // A failed compile is not cached: the next call tries again and throws its own error.
    return (this.twoPhase ??= TwoPhaseRunners.create(this.config, this.dtype, this.runnerOptions).catch((err: unknown) => { this.twoPhase = null; throw err; }));
  }

  private batchFeeds(batch: Omit<TrainBatch, 'dlogp'> & { dlogp?: TrainBatch['dlogp'] }, weights: Weights, needDlogp: boolean): Record<string, ort.Tensor> {
    const { batch: B, time: T } = batch;
    if (!Number.isInteger(T) || T < 2 || T > this.config.contextLength) throw new ModelOptionError('time', `an integer in [2, ${this.config.contextLength}]`, T);
    this.checkTokens(batch.tokens, B * T);
    const feeds: Record<string, ort.Tensor> = { ...this.weightFeeds(weights), tokens: new ort.Tensor('int64', batch.tokens, [B, T]) };
    for (const [f, input] of [['mask', 'loss_mask'], ['dlogp', 'dlogp']] as const) {
      const v = batch[f];
      if (!v && (f === 'mask' || needDlogp)) throw new ModelOptionError(f, `${B * (T - 1)} values (B x (T-1))`, v);
      if (!v) continue;
      if (v.length !== B * (T - 1)) throw new ModelOptionError(f, `${B * (T - 1)} values (B x (T-1))`, `${v.length} values`);
      feeds[input] = new ort.Tensor(this.dtype, v, [B, T - 1]);
    }
    const inv = batch.invTemp ?? (this.dtype === 'float64' ? new Float64Array(B) : new Float32Array(B)).fill(1);
    if (inv.length !== B) throw new ModelOptionError('invTemp', `${B} values (one per row)`, `${inv.length} values`);
    const bad = inv.findIndex((x) => !(x > 0 && Number.isFinite(x)));
    if (bad >= 0) throw new ModelOptionError(`invTemp[${bad}]`, 'a finite number > 0', inv[bad]);
    feeds['inv_temp'] = new ort.Tensor(this.dtype, inv, [B]);
    return feeds;
  }

  /** An empty cache for `batch` rows (P = 0). */
  emptyCache(batch: number): KvCache {
    const { kvHeads: K, headDim, layers } = this.config;
    const make = (): ort.Tensor => new ort.Tensor(this.dtype, this.dtype === 'float64' ? new Float64Array(0) : new Float32Array(0), [batch, K, 0, headDim]);
    return { k: Array.from({ length: layers }, make), v: Array.from({ length: layers }, make) };
  }

  /**
   * Compiles the decode graph with these weights baked in (see baked-decode.ts); decode steps given this same Map
   * then use it, other steps and other weights keep feeding weights. Resolves when it is ready. The arrays must
   * not change in place afterwards (new weights come as a new Map, as Sampler.setWeights gets them). One version
   * is kept: baking another releases the previous once its running steps end.
   */
  bakeWeights(weights: Weights): Promise<void> {
    return this.baked?.bake(weights) ?? Promise.resolve();
  }

  async step(step: SampleStep, weights: Weights): Promise<SampleResult> {
    if (!this.sampleRunner) throw new GraphRunError('this session was created without the sampling graph');
    const { batch: B, steps: S } = step;
    const P = step.past.k[0]?.dims[2] ?? 0;
    this.checkTokens(step.tokens, B * S);
    if (step.positions.length !== B * S) throw new ModelOptionError('positions', `${B * S} values (B x S)`, `${step.positions.length} values`);
    for (const p of step.positions) {
      if (p < 0n || p >= BigInt(this.config.contextLength)) throw new ModelOptionError('positions', `values in [0, ${this.config.contextLength})`, Number(p));
    }
    if (step.bias.length !== B * S * (P + S)) throw new ModelOptionError('bias', `${B * S * (P + S)} values (B x S x (P+S))`, `${step.bias.length} values`);
    const inv = step.invTemp ?? (this.dtype === 'float64' ? new Float64Array(B) : new Float32Array(B)).fill(1);
    if (inv.length !== B || inv.some((x) => !(x > 0 && Number.isFinite(x)))) throw new ModelOptionError('invTemp', `${B} finite values > 0 (one per row)`, `[${[...inv].slice(0, 8).join(', ')}${inv.length > 8 ? ', …' : ''}]`);
    const small = this.singleThreadDecodeRows > 0 && B <= this.singleThreadDecodeRows;
    const baked = S === 1 ? this.baked?.acquire(weights, small) ?? null : null;
    let out: Record<string, ort.Tensor>;
    try {
      const feeds: Record<string, ort.Tensor> = {
        ...(baked ? {} : this.weightFeeds(weights)),
        tokens: new ort.Tensor('int64', step.tokens, [B, S]),
        positions: new ort.Tensor('int64', step.positions, [B, S]),
        attn_bias: new ort.Tensor(this.dtype, step.bias, [B, S, P + S]),
        inv_temp: new ort.Tensor(this.dtype, inv, [B]),
      };
      for (let i = 0; i < this.config.layers; i++) {
        feeds[`past.${i}.k`] = step.past.k[i]!;
        feeds[`past.${i}.v`] = step.past.v[i]!;
      }
      const runner = baked?.runner ?? (S !== 1 || !this.decodeRunner ? this.sampleRunner : this.smallDecodeRunner && small ? this.smallDecodeRunner : this.decodeRunner);
      out = await runner.run(feeds);
    } finally {
      baked?.done();
    }
    const fresh: KvCache = { k: [], v: [] };
    for (let i = 0; i < this.config.layers; i++) {
      fresh.k.push(out[`new.${i}.k`]!);
      fresh.v.push(out[`new.${i}.v`]!);
    }
    return { logpLast: out['logp_last']!.data as Float32Array, probsLast: out['probs_last']!.data as Float32Array, fresh };
  }

  private checkTokens(tokens: BigInt64Array, n: number): void {
    if (tokens.length !== n) throw new ModelOptionError('tokens', `${n} ids`, `${tokens.length} ids`);
    const V = BigInt(this.config.vocab);
    for (const t of tokens) if (t < 0n || t >= V) throw new ModelOptionError('tokens', `ids in [0, ${this.config.vocab})`, Number(t));
  }

  async release(): Promise<void> {
    await this.trainRunner?.release();
    await this.scoreRunner?.release();
    await this.sampleRunner?.release();
    await this.decodeRunner?.release();
    await this.smallDecodeRunner?.release();
    await this.baked?.release();
    await (await this.twoPhase?.catch(() => null))?.release();
  }
}
