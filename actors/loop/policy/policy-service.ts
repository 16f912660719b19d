// The policy as the designer and agent see it: one model session and one batched sampler per host process, loaded
// from a checkpoint or a Hugging Face directory (or freshly initialised), following published weights, handing out
// SAMPLE records. Prompts are built in the model's prompt format (`format`), whose stop ids the sampler stops on.
import {
  initParameters, loadModel as loadModelDir, ModelSession, parameterShapes, promptFormat, validateDecoderConfig,
  type DecoderConfig, type PromptFormat, type ResolvedDecoderConfig, type Weights,
} from '../../../model/index.js';
import { Sampler, ShardedSampler, ThreadSampler, type SamplerHandle } from '../../../model/sampler/index.js';
import { addPhaseSource } from '../../../runtime/work-profile.js';
import { watchIntoSampler, type WeightSyncConnection, type WeightWatcher } from '../../../weight-sync/index.js';
import type { Sample } from '../messages.js';
import { packFloats, packInts } from '../packed.js';
import { PolicyError, PromptTooLongError } from '../errors.js';
import type { LoopOptions } from '../options.js';
import { resolvePolicyModel } from './policy-model.js';

export interface PolicySampleOptions {
  maxTokens: number;
  temperature: number;
  topP: number;
  signal?: AbortSignal;
  /** Keeps this sample's keys/values for the next request with the same key (one per episode; see Policy.release). */
  cacheKey?: string;
  /** Names the caller in errors. */
  role?: 'designer' | 'agent';
}

/** What actors need from the policy (the service, or a stand-in in unit tests of actor logic). */
export interface Policy {
  /** How prompts become ids for this model (the project's format, or the model's chat template). */
  readonly format: PromptFormat;
  readonly contextLength: number;
  sample(prompt: number[], opts: PolicySampleOptions): Promise<Sample>;
  /** Drops what the sampler keeps under a cacheKey (the episode ended); stand-ins without a cache may leave it out. */
  release?(cacheKey: string): void;
}

export interface PolicyServiceOptions {
  policy: LoopOptions['policy'];
  /** Where published weights come from; null or absent = no weight sync. */
  conn?: WeightSyncConnection | null;
  log?: (line: string) => void;
}

export interface PolicyStats {
  samples: number;
  tokens: number;
  version: number;
}

interface Loaded {
  config: ResolvedDecoderConfig;
  weights: Weights;
  format: PromptFormat;
  version: number;
  source: string;
}

async function loadModel(p: LoopOptions['policy'], log: (line: string) => void): Promise<Loaded> {
  const m = resolvePolicyModel(p);
  if (m.kind === 'checkpoint') {
    try {
      // One loader for a SPADE checkpoint or a Hugging Face directory; the tokenizer is the model's own.
      const ck = await loadModelDir(m.dir);
      if (ck.codec === undefined) throw new PolicyError(`${m.dir} has no tokenizer (a Hugging Face directory needs tokenizer.json)`, { checkpoint: m.dir });
      return { config: ck.model, weights: ck.params, format: promptFormat(ck.codec), version: ck.policyVersion, source: m.dir };
    } catch (err) {
      throw new PolicyError(`cannot load checkpoint ${m.dir}: ${(err as Error).message}`, { checkpoint: m.dir }, err);
    }
  }
  if (m.missing !== null && p.missingCheckpoint === 'fail') throw new PolicyError(`checkpoint ${m.missing} does not exist (loop.policy.missingCheckpoint is "fail")`, { checkpoint: m.missing });
  const config = validateDecoderConfig(m.config);
  if (m.missing !== null) log(`policy: no checkpoint at ${m.missing}; using a freshly initialised ${config.layers}x${config.width} model (seed ${m.seed})`);
  return { config, weights: initParameters(config, m.seed), format: promptFormat(m.tokenizer), version: 0, source: `init:${m.seed}` };
}

export class PolicyService implements Policy {
  private readonly stats_ = { samples: 0, tokens: 0 };
  private closed = false;
  /** Takes the sampler's prefill and decode time out of the host's profile (runtime/work-profile.ts). */
  private readonly unprofile: () => void;

  private constructor(
    readonly config: ResolvedDecoderConfig,
    /** The model session when the sampler runs on this thread (loop.policy.ownThread false), else null. */
    private readonly session: ModelSession | null,
    readonly sampler: SamplerHandle,
    readonly format: PromptFormat,
    readonly source: string,
    private watcher: WeightWatcher | null,
  ) {
    this.unprofile = addPhaseSource(() => sampler.phases());
  }

  static async open(o: PolicyServiceOptions): Promise<PolicyService> {
    const log = o.log ?? (() => undefined);
    const m = await loadModel(o.policy, log);
    const stopTokens = [...m.format.stopIds];
    const samplerOptions = { maxBatch: o.policy.maxBatch, stopTokens, seed: o.policy.seed };
    let session: ModelSession | null = null;
    let sampler: SamplerHandle;
    const shards = o.policy.ownThread ? o.policy.shards : 1;
    if (o.policy.ownThread) {
      const thread = {
        config: m.config, weights: m.weights, version: m.version, sampler: samplerOptions, codec: m.format,
        // Shards split the cores between them: one intra-op thread each unless threads says otherwise.
        threads: shards > 1 && o.policy.threads === 0 ? 1 : o.policy.threads,
        onError: (err: Error) => log(`policy: ${err.message}; the requests it held failed, the next one restarts it`),
      };
      sampler = await (shards > 1 ? ShardedSampler.startThreads(shards, thread) : ThreadSampler.start(thread)).catch((err: Error) => {
        throw new PolicyError(`cannot start the sampler thread${shards > 1 ? 's' : ''}: ${err.message}`, {}, err);
      });
    } else {
      session = await ModelSession.create(m.config, { graphs: ['sample'], intraOpNumThreads: o.policy.threads, allowSpinning: false });
      sampler = new Sampler(session, m.weights, m.version, m.format, samplerOptions);
    }
    let watcher: WeightWatcher | null = null;
    if (o.policy.weightSync && o.conn) {
      try {
        watcher = await watchIntoSampler(o.conn, sampler, {
          shapes: parameterShapes(m.config),
          onError: (err) => log(`policy: weight sync: ${err instanceof Error ? err.message : String(err)}`),
        });
      } catch (err) {
        // Do not leave a sampler thread (or session) behind: it would keep the process alive.
        await sampler.close().catch(() => undefined);
        await session?.release().catch(() => undefined);
        throw err;
      }
    }
    log(`policy: ${m.source}, version ${m.version}${shards > 1 ? `, ${shards} sampler shards` : ''}, ${m.format.kind} prompts, context ${m.config.contextLength}, vocab ${m.config.vocab}${watcher ? ', following published weights' : ''}`);
    return new PolicyService(m.config, session, sampler, m.format, m.source, watcher);
  }

  get contextLength(): number {
    return this.config.contextLength;
  }

  get version(): number {
    return this.sampler.policyVersion;
  }

  get stats(): PolicyStats {
    return { ...this.stats_, version: this.version };
  }

  /** Samples one completion (ending at a stop id, e.g. <|end_turn|>, which stays in the tokens but not the text); maxTokens is cut to the context left. */
  async sample(prompt: number[], opts: PolicySampleOptions): Promise<Sample> {
    if (this.closed) throw new PolicyError('the policy service is closed');
    const room = this.contextLength - prompt.length;
    if (room < 1) throw new PromptTooLongError(opts.role ?? 'agent', prompt.length, this.contextLength - 1);
    const out = await this.sampler.generate({
      prompt, temperature: opts.temperature, topP: opts.topP, maxTokens: Math.min(opts.maxTokens, room),
      ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.cacheKey !== undefined ? { cacheKey: opts.cacheKey } : {}),
    });
    this.stats_.samples++;
    this.stats_.tokens += out.tokens.length;
    // The behaviour log-probs are those of the distribution each token was drawn from (after temperature and
    // top-p), so the learner's importance ratio π_θ/π_behav is exact whatever the sampling settings.
    return {
      promptTokens: packInts(prompt), tokens: packInts(out.tokens), logprobs: packFloats(out.sampleLogprobs), versions: packInts(out.versions),
      temperature: opts.temperature, text: out.text, finishReason: out.finishReason,
    };
  }

  release(cacheKey: string): void {
    this.sampler.release(cacheKey);
  }

  /** Resolves once published weights of `version` or newer are in the sampler (they apply from the next decode step). */
  async waitForVersion(version: number): Promise<void> {
    if (this.version >= version) return;
    if (!this.watcher) throw new PolicyError(`policy version ${this.version} cannot reach ${version}: weight sync is off (loop.policy.weightSync, or no connection)`, { version });
    await this.watcher.waitForVersion(version);
  }

  /** Applies weights locally (tests, or a learner sharing the process). */
  setWeights(weights: Weights, version: number): void {
    this.sampler.setWeights(weights, version);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watcher?.stop();
    this.watcher = null;
    await this.sampler.close();
    this.unprofile();
    await this.session?.release();
  }
}
