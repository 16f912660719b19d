// Settings of the self-play loop's designer, agent, memory and policy service: one typed object meant to sit in
// cluster.config.ts as its `loop` section, with defaults and validation whose messages name the field.
import { resolve } from 'node:path';
import { DEFAULT_POLICY_MODEL } from '../../model/index.js';
import { loadLibraryEnvs, onlyModules } from '../designer/library-envs.js';
import { validateEvaluatorOptions, type EvaluatorOptions } from '../evaluator/options.js';
import { movedLearnerPath } from '../learner/flat-keys.js';
import { validateLearnerOptions, type LearnerOptions } from '../learner/options.js';
import { OptionsError, resolveOptions } from '../../runtime/options.js';
import { validateSandboxLimits, type SandboxLimits } from '../../sandbox/index.js';
import * as s from '../../runtime/schema.js';

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
    /**
     * Share of designs whose parent is an editable library module even when memory has one (memory parents keep
     * lineages going; library parents keep every family in play). Without memory, every parent is a library module.
     */
    libraryParents: number;
    /**
     * Each design first draws a family uniformly from the editable library's families, then recalls memory and picks
     * its parent within that family. Without it, retrieval follows reward, and one lineage can take over the run (a
     * 12-minute run: 130 of 152 accepted environments were reasoning, 80 of them caesar-shift children).
     */
    familyBalance: boolean;
    /**
     * What the designer writes: `module`, a whole child module after the parent's code (the shipped base's format);
     * or `knobs`, the lines of the parent's knob sheet it changes (`TOP = 80`), spliced into the parent's code
     * (actors/designer/knob-edit.ts). `knobs` needs a checkpoint warm-started on that format (docs/warm-start.md).
     */
    output: 'module' | 'knobs';
    /** Most tokens of a knob edit (`output: 'knobs'`); `maxTokens` bounds a whole module. */
    knobMaxTokens: number;
  };
  agent: SamplingOptions & {
    /** Cap on turns per episode, below the environment's own spec.maxTurns. */
    maxTurns: number;
    /** Prompt budget (oldest turns dropped to fit); the warm start trains with the same (agentMaxPromptTokens). */
    maxPromptTokens: number;
    /**
     * Times a reset or step that ran past loop.sandbox.limits.callTimeoutMs is replayed before the episode ends on
     * ENV_TIMEOUT. Play-time tolerance for scheduling blips on shared cores while validation keeps the strict limit
     * (a spurious fault would cost the designer evaluator.faultPenalty); 0 = a timeout ends the episode at once.
     */
    timeoutRetries: number;
  };
  /**
   * Replays of accepted environments (PLR/ACCEL's level buffer, scored by SFL's learnability): a share of each
   * iteration's design jobs play an environment accepted earlier instead of designing a new one, so the agent gets
   * several rollouts per design and the groups in band are played again (actors/coordinator/replay.ts).
   */
  replay: {
    /** Share of design jobs that replay a buffered environment once the buffer has one (0 = every job designs). */
    rate: number;
    /** Environments the buffer keeps per family (the lowest-scored played ones go first). */
    perFamily: number;
    /** Share of a replay draw given by staleness instead of score (PLR's ρ). */
    staleness: number;
    /** Weight of the newest evaluation in an environment's score (1: the last one alone). */
    emaRate: number;
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
    /**
     * Sampler threads side by side (ownThread only): each takes a share of maxBatch and its requests, with one
     * intra-op thread when threads is 0. Decoding data-parallel over cores (model/sampler/shards.ts).
     */
    shards: number;
  };
  corpus: {
    /** JSONL files or directories; empty = the shipped default corpus. */
    paths: string[];
  };
  /** Environment library the fixed-environment baseline draws from (<dir>/<family>/<name>.js); empty = envs/library. */
  library: string;
  /**
   * Library modules the loop uses, by name (e.g. `window-search`): the fixed baseline's pool and the designer's library
   * parents alike, so both arms train on the same modules (an experiment on a few families). Empty = every module.
   */
  modules: string[];
  sandbox: {
    /** 'remote': the sandbox role anywhere in the cluster (request/reply); 'local': a pool in this process. */
    mode: 'remote' | 'local';
    /** Worker threads of a local pool. */
    workers: number;
    /**
     * Limits of every sandbox pool of the loop (sandbox/options.ts: call timeouts, memory, output sizes, caches):
     * the sandbox role's pool and a local one alike; empty = the sandbox defaults.
     */
    limits: SandboxLimits;
  };
  /** Evaluator options (actors/evaluator/options.ts); validated there, field errors name `loop.evaluator.<field>`. */
  evaluator: EvaluatorOptions;
  /** Learner options (actors/learner/options.ts), nested by concern; validated there, field errors name `loop.learner.<group>.<field>`. */
  learner: LearnerOptions;
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** What a config file gives: any subset of the fields, at any depth. */
export type LoopOptionsInput = DeepPartial<LoopOptions>;

export const DEFAULT_LOOP_OPTIONS: LoopOptions = {
  // 8, not 4: with binary returns and a solve rate p a group trains only when it is not all-equal, which has
  // probability 1 − p^k − (1 − p)^k: at p = 0.1 that is 0.34 with k = 4 and 0.57 with k = 8 (docs/loop.md).
  k: 8,
  memory: { k: 3, frontierFraction: 0.5, frontierPool: 3 },
  designer: { maxTokens: 1200, temperature: 0.5, topP: 1, docChars: 600, validationSeeds: 8, libraryParents: 0.25, familyBalance: true, output: 'module', knobMaxTokens: 96 },
  agent: { maxTokens: 48, temperature: 0.3, topP: 1, maxTurns: 64, maxPromptTokens: 1024, timeoutRetries: 2 },
  replay: { rate: 0.9, perFamily: 16, staleness: 0.2, emaRate: 0.5 },
  ablations: { fixedEnvs: false, noCorpus: false, noMemory: false, noHintRegret: false },
  policy: {
    checkpoint: 'model/checkpoints/base', missingCheckpoint: 'init', tokenizer: 'bpe-2048',
    init: { ...DEFAULT_POLICY_MODEL, seed: 0 }, maxBatch: 32, seed: 0, threads: 0, weightSync: true, ownThread: true, shards: 1,
  },
  corpus: { paths: [] },
  library: '',
  modules: [],
  sandbox: { mode: 'remote', workers: 1, limits: {} },
  evaluator: {},
  learner: {},
};

const sampling = { maxTokens: s.int({ min: 1, max: 1 << 20 }), temperature: s.number({ min: 0, max: 100 }), topP: s.number({ gt: 0, max: 1 }) };
const size = s.int({ min: 1, max: 1 << 20 });
const loose = s.record(s.unknownValue());

/** The resolved form of LoopOptions; unknown keys are rejected at every depth (evaluator and learner: by their own schemas). */
export const LOOP_OPTIONS_SCHEMA: s.Check<LoopOptions> = s.object(
  {
    k: s.int({ min: 1, max: 256 }),
    memory: s.object({ k: s.int({ min: 0, max: 64 }), frontierFraction: s.number({ min: 0, max: 1 }), frontierPool: s.number({ min: 1, max: 1000 }) }, { strict: true }),
    designer: s.object({
      ...sampling, docChars: s.int({ min: 0, max: 1 << 20 }), validationSeeds: s.int({ min: 1, max: 1024 }), libraryParents: s.number({ min: 0, max: 1 }), familyBalance: s.boolean(),
      output: s.literal('module', 'knobs'), knobMaxTokens: s.int({ min: 1, max: 1 << 16 }),
    }, { strict: true }),
    agent: s.object({ ...sampling, maxTurns: s.int({ min: 1, max: 64 }), maxPromptTokens: s.int({ min: 16, max: 1 << 20 }), timeoutRetries: s.int({ min: 0, max: 10 }) }, { strict: true }),
    replay: s.object({ rate: s.number({ min: 0, max: 1 }), perFamily: s.int({ min: 1, max: 1 << 16 }), staleness: s.number({ min: 0, max: 1 }), emaRate: s.number({ gt: 0, max: 1 }) }, { strict: true }),
    ablations: s.object({ fixedEnvs: s.boolean(), noCorpus: s.boolean(), noMemory: s.boolean(), noHintRegret: s.boolean() }, { strict: true }),
    policy: s.object(
      {
        checkpoint: s.nullable(s.string({ min: 1 })),
        missingCheckpoint: s.literal('init', 'fail'),
        tokenizer: s.string({ min: 1 }),
        init: s.object({ layers: size, width: size, heads: size, kvHeads: s.optional(size), contextLength: size, seed: s.int({ min: 0 }) }, { strict: true }),
        maxBatch: s.int({ min: 1, max: 4096 }),
        seed: s.int({ min: 0 }),
        threads: s.int({ min: 0, max: 1024 }),
        weightSync: s.boolean(),
        ownThread: s.boolean(),
        shards: s.int({ min: 1, max: 64 }),
      },
      { strict: true },
    ),
    corpus: s.object({ paths: s.array(s.string({ min: 1 })) }, { strict: true }),
    library: s.string(),
    modules: s.array(s.string({ min: 1 })),
    sandbox: s.object({ mode: s.literal('remote', 'local'), workers: s.int({ min: 1, max: 1024 }), limits: loose as s.Check<SandboxLimits> }, { strict: true }),
    evaluator: loose as s.Check<EvaluatorOptions>,
    learner: loose as s.Check<LearnerOptions>,
  },
  { strict: true },
);

/** Fills defaults and checks every field; throws OptionsError naming the first bad or unknown one (as `<path>.<field>`). */
export function validateLoopOptions(input: LoopOptionsInput = {}, path = 'loop'): LoopOptions {
  const o = resolveOptions(LOOP_OPTIONS_SCHEMA, DEFAULT_LOOP_OPTIONS, input, path);
  // A given heads without kvHeads means one kv head per head (the default's kvHeads belongs to its heads).
  if (input.policy?.init?.heads !== undefined && input.policy.init.kvHeads === undefined) o.policy.init.kvHeads = o.policy.init.heads;
  const { width, heads, kvHeads } = o.policy.init;
  if (width % heads !== 0 || (width / heads) % 2 !== 0)
    throw new OptionsError(`${path}.policy.init.width`, `a multiple of heads (${heads}) with an even head size`, width);
  if (kvHeads !== undefined && heads % kvHeads !== 0) throw new OptionsError(`${path}.policy.init.kvHeads`, `a divisor of heads (${heads})`, kvHeads);
  if (o.policy.shards > 1 && !o.policy.ownThread) throw new OptionsError(`${path}.policy.shards`, '1 when policy.ownThread is false (shards are sampler threads)', o.policy.shards);
  // Checked here so a bad value fails at start; the actors resolve them again from these partial forms.
  validateEvaluatorOptions(o.evaluator, `${path}.evaluator`);
  validateLearnerOptions(o.learner, `${path}.learner`);
  validateSandboxLimits(o.sandbox.limits, `${path}.sandbox.limits`);
  // Names the library lacks fail at start, not when the designer host opens its library. The fixed pool reads
  // loop.library; the designer's parents come from the shipped library.
  if (o.modules.length) onlyModules(loadLibraryEnvs(o.ablations.fixedEnvs && o.library ? resolve(o.library) : undefined), o.modules, `${path}.modules`);
  return o;
}

/** Where a path of the loop section (relative to `loop`) holding `value` moved to, or undefined: the learner's flat keys. */
export function movedLoopPath(path: string, value: unknown): string | undefined {
  const to = path.startsWith('learner.') ? movedLearnerPath(path.slice('learner.'.length), value) : undefined;
  return to === undefined ? undefined : `learner.${to}`;
}

/** The loop section of a cluster config, once the lead has added it (`config.loop`); defaults otherwise. */
export function loopOptionsOf(config: object): LoopOptions {
  return validateLoopOptions((config as { loop?: LoopOptionsInput }).loop ?? {});
}
