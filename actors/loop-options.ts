// Settings of the self-play loop's designer, agent, memory and policy service: one typed object meant to sit in
// cluster.config.ts as its `loop` section, with defaults and validation whose messages name the field.
import { DEFAULT_POLICY_MODEL } from '../model/decoder.js';
import { validateEvaluatorOptions, type EvaluatorOptions } from './evaluator/options.js';
import { validateLearnerOptions, type LearnerOptions } from './learner/options.js';
import { LoopOptionsError } from './loop-errors.js';

export interface SamplingOptions {
  maxTokens: number;
  temperature: number;
  topP: number;
}

export interface LoopOptions {
  /** Episodes per arm: k without the hint and k with it. */
  k: number;
  memory: {
    /** Memory entries in a designer prompt. */
    k: number;
    /** Share of them taken from the frontier (high regret, mid solve rate); the rest are diverse. */
    frontierFraction: number;
    /** Frontier picks are drawn from the best frontierPool × (their count) entries. */
    frontierPool: number;
  };
  designer: SamplingOptions & {
    /** Characters of the grounding document in the prompt. */
    docChars: number;
    /** Seeds per validation probe (the sandbox's ValidateOptions.seeds). */
    validationSeeds: number;
  };
  agent: SamplingOptions & {
    /** Cap on turns per episode, below the environment's own spec.maxTurns. */
    maxTurns: number;
    /** Prompt budget (oldest turns dropped to fit); the warm start trains with the same (agentMaxPromptTokens). */
    maxPromptTokens: number;
  };
  /** Baselines and ablations (the evaluator reads noHintRegret). */
  ablations: {
    /** No designer: each design job publishes a library environment (envs/library) as accepted. */
    fixedEnvs: boolean;
    /** Empty grounding document. */
    noCorpus: boolean;
    /** No memory entries in the designer prompt. */
    noMemory: boolean;
    /** Designer rewarded for validity only (evaluator). */
    noHintRegret: boolean;
  };
  policy: {
    /** Checkpoint directory (relative to the repo root or absolute); null = a freshly initialised model. */
    checkpoint: string | null;
    /** When the checkpoint directory does not exist: 'init' logs and initialises, 'fail' throws. */
    missingCheckpoint: 'init' | 'fail';
    /** Tokenizer of an initialised model (a checkpoint brings its own). */
    tokenizer: string;
    /** Decoder of an initialised model; vocab comes from the tokenizer, kvHeads follows a given heads. */
    init: { layers: number; width: number; heads: number; kvHeads?: number; contextLength: number; seed: number };
    /** Rows decoded together (designer and agent requests share them). */
    maxBatch: number;
    /** Sampler random seed. */
    seed: number;
    /** onnxruntime intra-op threads (0 = all cores). */
    threads: number;
    /** Follow published weights (KV policy record + object store). */
    weightSync: boolean;
    /**
     * Decode on a worker thread of its own (onnxruntime-node runs each step synchronously on the calling thread),
     * so the host's actors, sandbox client and NATS client run while the model decodes. false = on the main thread.
     */
    ownThread: boolean;
  };
  corpus: {
    /** JSONL files or directories; empty = the shipped default corpus. */
    paths: string[];
  };
  /** Environment library the fixed-environment baseline draws from (<dir>/<family>/<name>.js); empty = envs/library. */
  library: string;
  sandbox: {
    /** 'remote': the sandbox role anywhere in the cluster (request/reply); 'local': a pool in this process. */
    mode: 'remote' | 'local';
    /** Worker threads of a local pool. */
    workers: number;
  };
  /** Evaluator options (actors/evaluator/options.ts); validated there, field errors name `loop.evaluator.<field>`. */
  evaluator: EvaluatorOptions;
  /** Learner options (actors/learner/options.ts); validated there, field errors name `loop.learner.<field>`. */
  learner: LearnerOptions;
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** What a config file gives: any subset of the fields, at any depth. */
export type LoopOptionsInput = DeepPartial<LoopOptions>;

export const DEFAULT_LOOP_OPTIONS: LoopOptions = {
  k: 4,
  memory: { k: 3, frontierFraction: 0.5, frontierPool: 3 },
  designer: { maxTokens: 1200, temperature: 1, topP: 1, docChars: 600, validationSeeds: 8 },
  agent: { maxTokens: 48, temperature: 1, topP: 1, maxTurns: 64, maxPromptTokens: 1024 },
  ablations: { fixedEnvs: false, noCorpus: false, noMemory: false, noHintRegret: false },
  policy: {
    checkpoint: 'model/checkpoints/base', missingCheckpoint: 'init', tokenizer: 'bpe-2048',
    init: { ...DEFAULT_POLICY_MODEL, seed: 0 }, maxBatch: 32, seed: 0, threads: 0, weightSync: true, ownThread: true,
  },
  corpus: { paths: [] },
  library: '',
  sandbox: { mode: 'remote', workers: 1 },
  evaluator: {},
  learner: {},
};

function int(field: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isInteger(v) || (v as number) < min || (v as number) > max) throw new LoopOptionsError(field, `an integer in [${min}, ${max}]`, v);
}
function num(field: string, v: unknown, min: number, max: number, openMin = false): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v > max || v < min || (openMin && v === min))
    throw new LoopOptionsError(field, `a number in ${openMin ? '(' : '['}${min}, ${max}]`, v);
}
function bool(field: string, v: unknown): void {
  if (typeof v !== 'boolean') throw new LoopOptionsError(field, 'a boolean', v);
}
function sampling(field: string, o: SamplingOptions): void {
  int(`${field}.maxTokens`, o.maxTokens, 1, 1 << 20);
  num(`${field}.temperature`, o.temperature, 0, 100);
  num(`${field}.topP`, o.topP, 0, 1, true);
}

function section<T extends object>(field: string, def: T, given: unknown, open = false): T {
  if (given === undefined) return { ...def };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new LoopOptionsError(field, 'an object', given);
  if (!open) for (const k of Object.keys(given)) if (!(k in def)) throw new LoopOptionsError(`${field}.${k}`, `a known field (${Object.keys(def).join(', ')})`, k);
  const out = { ...def } as Record<string, unknown>;
  for (const [k, v] of Object.entries(given)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** Fills defaults and checks every field; throws LoopOptionsError naming the first bad one (as `loop.<path>`). */
export function validateLoopOptions(input: LoopOptionsInput = {}): LoopOptions {
  const o = section('loop', DEFAULT_LOOP_OPTIONS, input);
  o.memory = section('loop.memory', DEFAULT_LOOP_OPTIONS.memory, input.memory);
  o.designer = section('loop.designer', DEFAULT_LOOP_OPTIONS.designer, input.designer);
  o.agent = section('loop.agent', DEFAULT_LOOP_OPTIONS.agent, input.agent);
  o.ablations = section('loop.ablations', DEFAULT_LOOP_OPTIONS.ablations, input.ablations);
  o.policy = section('loop.policy', DEFAULT_LOOP_OPTIONS.policy, input.policy);
  o.policy.init = section('loop.policy.init', DEFAULT_LOOP_OPTIONS.policy.init, input.policy?.init);
  if (input.policy?.init?.heads !== undefined && input.policy.init.kvHeads === undefined) o.policy.init.kvHeads = o.policy.init.heads;
  o.corpus = section('loop.corpus', DEFAULT_LOOP_OPTIONS.corpus, input.corpus);
  o.sandbox = section('loop.sandbox', DEFAULT_LOOP_OPTIONS.sandbox, input.sandbox);

  int('loop.k', o.k, 1, 256);
  int('loop.memory.k', o.memory.k, 0, 64);
  num('loop.memory.frontierFraction', o.memory.frontierFraction, 0, 1);
  num('loop.memory.frontierPool', o.memory.frontierPool, 1, 1000);
  sampling('loop.designer', o.designer);
  int('loop.designer.docChars', o.designer.docChars, 0, 1 << 20);
  int('loop.designer.validationSeeds', o.designer.validationSeeds, 1, 1024);
  sampling('loop.agent', o.agent);
  int('loop.agent.maxTurns', o.agent.maxTurns, 1, 64);
  int('loop.agent.maxPromptTokens', o.agent.maxPromptTokens, 16, 1 << 20);
  for (const k of Object.keys(o.ablations) as (keyof LoopOptions['ablations'])[]) bool(`loop.ablations.${k}`, o.ablations[k]);
  const p = o.policy;
  if (p.checkpoint !== null && (typeof p.checkpoint !== 'string' || p.checkpoint === '')) throw new LoopOptionsError('loop.policy.checkpoint', 'a directory path or null', p.checkpoint);
  if (p.missingCheckpoint !== 'init' && p.missingCheckpoint !== 'fail') throw new LoopOptionsError('loop.policy.missingCheckpoint', '"init" or "fail"', p.missingCheckpoint);
  if (typeof p.tokenizer !== 'string' || p.tokenizer === '') throw new LoopOptionsError('loop.policy.tokenizer', 'a tokenizer name or path', p.tokenizer);
  for (const f of ['layers', 'width', 'heads', 'contextLength'] as const) int(`loop.policy.init.${f}`, p.init[f], 1, 1 << 20);
  int('loop.policy.init.seed', p.init.seed, 0);
  if (p.init.width % p.init.heads !== 0 || (p.init.width / p.init.heads) % 2 !== 0)
    throw new LoopOptionsError('loop.policy.init.width', `a multiple of heads (${p.init.heads}) with an even head size`, p.init.width);
  if (p.init.kvHeads !== undefined && (!Number.isInteger(p.init.kvHeads) || p.init.kvHeads < 1 || p.init.heads % p.init.kvHeads !== 0))
    throw new LoopOptionsError('loop.policy.init.kvHeads', `a divisor of heads (${p.init.heads})`, p.init.kvHeads);
  int('loop.policy.maxBatch', p.maxBatch, 1, 4096);
  int('loop.policy.seed', p.seed, 0);
  int('loop.policy.threads', p.threads, 0, 1024);
  bool('loop.policy.weightSync', p.weightSync);
  bool('loop.policy.ownThread', p.ownThread);
  if (!Array.isArray(o.corpus.paths) || o.corpus.paths.some((x) => typeof x !== 'string' || x === ''))
    throw new LoopOptionsError('loop.corpus.paths', 'an array of non-empty paths', o.corpus.paths);
  if (typeof o.library !== 'string') throw new LoopOptionsError('loop.library', 'a directory path ("" = envs/library)', o.library);
  if (o.sandbox.mode !== 'remote' && o.sandbox.mode !== 'local') throw new LoopOptionsError('loop.sandbox.mode', '"remote" or "local"', o.sandbox.mode);
  int('loop.sandbox.workers', o.sandbox.workers, 1, 1024);
  o.evaluator = section('loop.evaluator', {}, input.evaluator, true) as EvaluatorOptions;
  o.learner = section('loop.learner', {}, input.learner, true) as LearnerOptions;
  for (const [name, check] of [['evaluator', () => validateEvaluatorOptions(o.evaluator)], ['learner', () => validateLearnerOptions(o.learner)]] as const) {
    try {
      check();
    } catch (err) {
      const field = (err as { field?: string }).field;
      if (field === undefined) throw err;
      throw new LoopOptionsError(`loop.${name}.${field}`, (err as Error).message.replace(/^.* must be /, '').replace(/ \(got .*\)$/, ''), (o[name] as Record<string, unknown>)[field]);
    }
  }
  return o;
}

/** The loop section of a cluster config, once the lead has added it (`config.loop`); defaults otherwise. */
export function loopOptionsOf(config: object): LoopOptions {
  return validateLoopOptions((config as { loop?: LoopOptionsInput }).loop ?? {});
}
