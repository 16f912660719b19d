// The batched Sampler behind a worker thread (sampler-worker.ts), with the part of the Sampler API the policy service
// uses: generate, setWeights, release, policyVersion, steps, close. Text is decoded here, from the returned tokens, so the
// worker needs no tokenizer. A thread that dies fails the requests it held (typed) and is started again, with the
// newest weights, by the next request.
import type { ResolvedDecoderConfig } from '../decoder-config.js';
import { ModelOptionError } from '../errors.js';
import { SamplerClosedError, SamplerError, StaleWeightsError } from './errors.js';
import { validateSamplerOptions, type SampleOutput, type SamplerOptions, type TextCodec } from './sampler.js';
import type { Weights } from '../session.js';
import type { SamplerCalls, SamplerMeta, SamplerWorkerData } from './worker.js';
import type { PlainError } from '../../runtime/plain-error.js';
import { WorkerRpc, type RpcFailure } from '../../runtime/worker-rpc.js';
import { addTotals, type PhaseTotals } from '../../runtime/phase-meter.js';

/** What a caller needs of a sampler, on this thread (Sampler) or on its own (ThreadSampler). */
export interface SamplerHandle {
  readonly policyVersion: number;
  /** Decode steps run so far. */
  readonly steps: number;
  generate(request: { prompt: number[]; temperature?: number; topP?: number; maxTokens?: number; signal?: AbortSignal; cacheKey?: string }): Promise<SampleOutput>;
  setWeights(weights: Weights, version: number): void;
  /** Drops the prefix keys/values kept under a request's cacheKey. */
  release(key: string): void;
  /** Time, tokens and FLOPs of its prefill and decode calls so far (on a thread: as of its latest reply). */
  phases(): PhaseTotals;
  close(): Promise<void>;
}

/** The sampler thread failed: it could not start, or it died with requests in flight. */
export class SamplerThreadError extends SamplerError {
  constructor(message: string, readonly remote?: PlainError, cause?: unknown) {
    super(message, { code: 'SAMPLER_THREAD', data: remote ? { remoteName: remote.name, remoteCode: remote.code } : {}, cause });
  }
}

export const isSamplerThreadError = (e: unknown): e is SamplerThreadError => e instanceof SamplerThreadError;

export interface ThreadSamplerOptions {
  config: ResolvedDecoderConfig;
  weights: Weights;
  version: number;
  sampler?: SamplerOptions;
  /** onnxruntime intra-op threads of the worker's session. */
  threads?: number;
  /** Decodes the returned tokens into text (stop tokens left out), as Sampler does with its codec. */
  codec?: TextCodec | null;
  /** Told when the thread dies (it restarts on the next request). */
  onError?: (err: SamplerThreadError) => void;
}

const cancelled = (): SampleOutput => ({ text: '', tokens: [], logprobs: [], sampleLogprobs: [], versions: [], version: -1, finishReason: 'cancelled' });

function threadError(f: RpcFailure): SamplerThreadError | SamplerClosedError {
  if (f.kind === 'start-failed') return new SamplerThreadError(`the sampler thread could not start: ${f.remote.message}`, f.remote);
  if (f.kind === 'not-ready') return new SamplerThreadError(`the sampler thread sent ${JSON.stringify(f.message).slice(0, 200)} before it was ready`);
  if (f.kind === 'crashed') return new SamplerThreadError(`the sampler thread crashed${f.starting ? ' while starting' : ''}: ${f.cause.message}`, undefined, f.cause);
  if (f.kind === 'exited') return new SamplerThreadError(`the sampler thread exited (code ${f.code})${f.starting ? ' while starting' : ''}`);
  if (f.remote.name === 'SamplerClosedError') return new SamplerClosedError();
  return new SamplerThreadError(`sampling failed on the sampler thread: ${f.remote.message}`, f.remote);
}

type Rpc = WorkerRpc<SamplerCalls, SamplerThreadError | SamplerClosedError>;

export class ThreadSampler implements SamplerHandle {
  private rpc: Rpc | null = null;
  private starting: Promise<Rpc> | null = null;
  private weights: Weights;
  private version: number;
  private steps_ = 0;
  /** The phases of threads that died, and of the running one as of its latest reply. */
  private deadPhases: PhaseTotals = {};
  private livePhases: PhaseTotals = {};
  private closed = false;
  private readonly options: Required<SamplerOptions>;

  private constructor(private readonly o: ThreadSamplerOptions) {
    this.options = validateSamplerOptions(o.sampler);
    this.weights = o.weights;
    this.version = o.version;
  }

  /** Starts the thread (model session, baked weights) and resolves once it is ready. */
  static async start(o: ThreadSamplerOptions): Promise<ThreadSampler> {
    const s = new ThreadSampler(o);
    await s.ensure();
    return s;
  }

  get policyVersion(): number {
    return this.version;
  }

  get steps(): number {
    return this.steps_;
  }

  phases(): PhaseTotals {
    return addTotals(this.deadPhases, this.livePhases);
  }

  setWeights(weights: Weights, version: number): void {
    if (version <= this.version) throw new StaleWeightsError(this.version, version);
    this.weights = weights;
    this.version = version;
    this.rpc?.tell('weights', { weights, version });
  }

  /** A thread that died lost its prefix cache with it; nothing to drop then. */
  release(key: string): void {
    if (this.rpc?.dead === null) this.rpc.tell('release', key);
  }

  async generate(request: { prompt: number[]; temperature?: number; topP?: number; maxTokens?: number; signal?: AbortSignal; cacheKey?: string }): Promise<SampleOutput> {
    if (this.closed) throw new SamplerClosedError();
    if (!Array.isArray(request.prompt)) throw new ModelOptionError('prompt', 'token ids (a thread sampler takes no text)', typeof request.prompt);
    if (request.signal?.aborted) return cancelled();
    const rpc = await this.ensure();
    if (request.signal?.aborted) return cancelled(); // aborted while the thread was starting
    const o = await rpc.request('generate', {
      prompt: request.prompt, temperature: request.temperature ?? 1, topP: request.topP ?? 1, maxTokens: request.maxTokens ?? 64,
      ...(request.cacheKey !== undefined ? { cacheKey: request.cacheKey } : {}),
    }, request.signal ? { signal: request.signal } : {});
    if (this.o.codec) o.text = this.o.codec.decode(o.tokens.filter((t) => !this.options.stopTokens.includes(t)));
    return o;
  }

  /** Waiting and running requests end with SamplerClosedError (as Sampler.close does), then the thread ends. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const rpc = this.rpc ?? (await this.starting?.catch(() => null)) ?? null;
    this.rpc = null;
    await rpc?.close('close');
  }

  /** The thread dies as a crash would (tests: a sampler thread that dies mid-run); see WorkerRpc.kill. */
  async kill(): Promise<void> {
    await this.rpc?.kill();
  }

  /** The running thread, or a new one when there is none or it died (with the newest weights). */
  private ensure(): Promise<Rpc> {
    if (this.rpc !== null && this.rpc.dead === null) return Promise.resolve(this.rpc);
    this.starting ??= this.spawn().finally(() => (this.starting = null));
    return this.starting;
  }

  private async spawn(): Promise<Rpc> {
    const data: SamplerWorkerData = {
      config: this.o.config, weights: this.weights, version: this.version, options: this.options, threads: this.o.threads ?? 1,
    };
    const rpc: Rpc = await WorkerRpc.start<SamplerCalls, SamplerThreadError | SamplerClosedError>({
      url: new URL('./worker.js', import.meta.url), workerData: data, error: threadError,
      onReply: (meta) => {
        const m = meta as SamplerMeta;
        this.steps_ = Math.max(this.steps_, m.steps);
        this.livePhases = m.phases;
      },
      onDeath: (err) => {
        this.deadPhases = this.phases();
        this.livePhases = {};
        if (!this.closed && err instanceof SamplerThreadError) this.o.onError?.(err);
      },
    });
    this.rpc = rpc;
    // Weights that arrived while it started.
    if (this.version > data.version) rpc.tell('weights', { weights: this.weights, version: this.version });
    return rpc;
  }
}
