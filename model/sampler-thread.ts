// The batched Sampler behind a worker thread (sampler-worker.ts), with the part of the Sampler API the policy service
// uses: generate, setWeights, policyVersion, steps, close. Text is decoded here, from the returned tokens, so the
// worker needs no tokenizer. A thread that dies fails the requests it held (typed) and is started again, with the
// newest weights, by the next request.
import { Worker } from 'node:worker_threads';
import type { ResolvedDecoderConfig } from './decoder.js';
import { ModelOptionError } from './errors.js';
import { SamplerClosedError, SamplerError, StaleWeightsError } from './sampler-errors.js';
import { validateSamplerOptions, type SampleOutput, type SamplerOptions, type TextCodec } from './sampler.js';
import type { Weights } from './session.js';
import type { SamplerCall, SamplerReply, SamplerWorkerData } from './sampler-worker.js';
import type { PlainError } from '../runtime/plain-error.js';

/** What a caller needs of a sampler, on this thread (Sampler) or on its own (ThreadSampler). */
export interface SamplerHandle {
  readonly policyVersion: number;
  /** Decode steps run so far. */
  readonly steps: number;
  generate(request: { prompt: number[]; temperature?: number; topP?: number; maxTokens?: number; signal?: AbortSignal }): Promise<SampleOutput>;
  setWeights(weights: Weights, version: number): void;
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

interface Waiting {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

const cancelled = (): SampleOutput => ({ text: '', tokens: [], logprobs: [], sampleLogprobs: [], versions: [], version: -1, finishReason: 'cancelled' });

export class ThreadSampler implements SamplerHandle {
  private worker: Worker | null = null;
  private starting: Promise<Worker> | null = null;
  private weights: Weights;
  private version: number;
  private steps_ = 0;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
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

  setWeights(weights: Weights, version: number): void {
    if (version <= this.version) throw new StaleWeightsError(this.version, version);
    this.weights = weights;
    this.version = version;
    this.worker?.postMessage({ op: 'weights', weights, version } satisfies SamplerCall);
  }

  async generate(request: { prompt: number[]; temperature?: number; topP?: number; maxTokens?: number; signal?: AbortSignal }): Promise<SampleOutput> {
    if (this.closed) throw new SamplerClosedError();
    if (!Array.isArray(request.prompt)) throw new ModelOptionError('prompt', 'token ids (a thread sampler takes no text)', typeof request.prompt);
    if (request.signal?.aborted) return cancelled();
    const worker = await this.ensure();
    if (request.signal?.aborted) return cancelled(); // aborted while the thread was starting
    const id = this.nextId++;
    const out = new Promise<SampleOutput>((resolve, reject) => this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    const onAbort = (): void => this.worker?.postMessage({ op: 'abort', id } satisfies SamplerCall);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({
      op: 'generate', id, prompt: request.prompt, temperature: request.temperature ?? 1, topP: request.topP ?? 1, maxTokens: request.maxTokens ?? 64,
    } satisfies SamplerCall);
    try {
      const o = await out;
      if (this.o.codec) o.text = this.o.codec.decode(o.tokens.filter((t) => !this.options.stopTokens.includes(t)));
      return o;
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Waiting and running requests end with SamplerClosedError (as Sampler.close does), then the thread ends. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker ?? (await this.starting?.catch(() => null)) ?? null;
    if (worker === null) return;
    const id = this.nextId++;
    const done = new Promise<unknown>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    worker.postMessage({ op: 'close', id } satisfies SamplerCall);
    await done.catch(() => undefined);
    this.worker = null;
    await worker.terminate();
  }

  /** Ends the thread at once (tests: a sampler thread that dies mid-run). */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  private ensure(): Promise<Worker> {
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= this.spawn().finally(() => (this.starting = null));
    return this.starting;
  }

  private spawn(): Promise<Worker> {
    const data: SamplerWorkerData = {
      config: this.o.config, weights: this.weights, version: this.version, options: this.options, threads: this.o.threads ?? 1,
    };
    const worker = new Worker(new URL('./sampler-worker.js', import.meta.url), { workerData: data });
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (m: SamplerReply) => {
        if (m.op === 'ready') {
          ready = true;
          this.worker = worker;
          // Weights that arrived while it started.
          if (this.version > data.version) worker.postMessage({ op: 'weights', weights: this.weights, version: this.version } satisfies SamplerCall);
          resolve(worker);
        } else if (m.op === 'failed') {
          reject(new SamplerThreadError(`the sampler thread could not start: ${m.error.message}`, m.error));
          void worker.terminate();
        } else this.reply(m);
      });
      const gone = (err: SamplerThreadError): void => {
        if (!ready) return reject(err);
        if (this.worker === worker) this.worker = null;
        for (const w of this.waiting.values()) w.reject(err);
        this.waiting.clear();
        if (!this.closed) this.o.onError?.(err);
      };
      worker.on('error', (err) => gone(new SamplerThreadError(`the sampler thread crashed: ${err.message}`, undefined, err)));
      worker.on('exit', (code) => gone(new SamplerThreadError(`the sampler thread exited (code ${code})`)));
    });
  }

  private reply(m: Extract<SamplerReply, { op: 'done' }>): void {
    this.steps_ = Math.max(this.steps_, m.steps);
    const w = this.waiting.get(m.id);
    if (w === undefined) return;
    this.waiting.delete(m.id);
    if (m.ok) w.resolve(m.value);
    else if (m.error.name === 'SamplerClosedError') w.reject(new SamplerClosedError());
    else w.reject(new SamplerThreadError(`sampling failed on the sampler thread: ${m.error.message}`, m.error));
  }
}
