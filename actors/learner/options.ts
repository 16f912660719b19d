// The learner's knobs, nested by concern: where fresh weights come from (init), the objective, which trajectories an
// update takes and how it cuts them (batching), when it publishes and checkpoints (cadence), the checkpoints kept, the
// optimizer, how it runs on its host, and the learner group. flat-keys.ts maps the flat keys of before onto them.
import { DEFAULT_POLICY_MODEL, isModelOptionError, validateAdamWOptions, validateDecoderConfig, type AdamWOptions, type DecoderConfig } from '../../model/index.js';
import { OptionsError, resolveOptions } from '../../runtime/options.js';
import * as s from '../../runtime/schema.js';
import { movedLearnerPath } from './flat-keys.js';
import type { ObjectiveKind } from './objective.js';
import { DEFAULT_PASS_TOKENS } from './micro-batches.js';

/** Where the weights come from when the learner has no checkpoint of its own. */
export interface LearnerInitOptions {
  /** Base checkpoint directory to start from (e.g. the warm-start one); its config wins over `model`. */
  checkpoint?: string;
  /** Tokenizer name or path stored with checkpoints when starting from fresh weights. */
  tokenizer?: string;
  /** Seed of fresh weights (no checkpoint anywhere). */
  seed?: number;
}

/** The loss of one update. */
export interface LearnerObjectiveOptions {
  kind?: ObjectiveKind;
  clipEps?: number;
  tisCap?: number;
  /**
   * Score each sampled token at the temperature it was drawn at (the temperature its sample carries), as verl does:
   * the importance ratio then compares the policy with the distribution that acted. false = score at temperature 1
   * against behaviour log-probs of the tempered draw, whose ratio at the loop's agent temperature 0.3 sits below
   * 1 − ε for the likeliest tokens and above 1 + ε for the others; clipping then zeroes the gradient of a
   * successful episode's exploratory tokens and of a failed one's likeliest tokens (docs/loop.md, learner).
   */
  sampleTemperature?: boolean;
  /** Optimizer steps per minibatch (PPO epochs); the proximal policy of 'decoupled' is the one before the first. */
  epochs?: number;
  /**
   * Weight of each role's token mean in the loss: a token of role r weighs w_r / (W · N_r), N_r the role's trained
   * tokens in the minibatch, W the sum of the weights of the roles present. Equal weights: each role's tokens
   * together count as much as the other's, however many there are (a designer sample is ~1,000 tokens, an agent
   * action a few).
   */
  roleWeights?: { designer: number; agent: number };
  /**
   * Weight β of a per-token KL penalty to the run's start weights (objective.ts klTerm, the k3 estimator GRPO uses;
   * kl-reference.ts); 0 = none. It holds the policy near what its base had solved while the curriculum moves it
   * elsewhere, and costs one more scoring pass per micro-batch.
   */
  klBeta?: number;
}

/** Which trajectories an update takes, when it starts, and how it cuts them into forward/backward passes. */
export interface LearnerBatchingOptions {
  /** Maximum staleness in policy versions: a trajectory older than this at update time is dropped. 0 = synchronous. */
  eta?: number;
  /** Skip the compute of zero-advantage trajectories (their gradient is zero); they still count as applied. */
  skipZeroAdvantage?: boolean;
  /**
   * Labeled batches per iteration (one per design job: config.run.designsPerIteration). When > 0 an update trains
   * exactly one iteration, once all its batches are in (one version per iteration, as the coordinator schedules);
   * 0 = size-triggered minibatches (below).
   */
  iterationBatches?: number;
  /** Size mode: an update starts once this many trajectories, or minibatchTokens trained tokens, are buffered. */
  minibatchTrajectories?: number;
  minibatchTokens?: number;
  /** Either mode: train what is buffered when nothing arrived for this long (a lost batch never stalls the loop). */
  flushAfterMs?: number;
  /** Bound on one forward/backward pass: rows x padded length. Larger minibatches accumulate gradients. */
  microBatchTokens?: number;
  /** What one more pass costs, in padded tokens: rows are cut into passes by length where that saves more padding. */
  microBatchPassTokens?: number;
  /** Bound on one pass's attention, rows x padded length²: each attention tensor of the training graph holds heads x
   * this many values, and onnxruntime's arena keeps the largest pass's blocks for good. 2^23 bites only on rows
   * longer than 1024 tokens at the default microBatchTokens (docs/reliability.md, resource limits). */
  microBatchCells?: number;
  /**
   * Each micro-batch as the training graph's forward half (log π_θ and what its backward reads) then its backward
   * half, instead of a scoring pass and the one-piece graph, whose forward is the same work again (model/two-phase.ts).
   * Default true: less learner CPU per token and less peak RSS (docs/loop.md, batching.twoPhase). */
  twoPhase?: boolean;
}

/** When weights go out and state goes to disk, counted in updates. */
export interface LearnerCadenceOptions {
  /** Publish weights (and bump the policy version) every this many updates. */
  publishEvery?: number;
  /** Checkpoint (weights, optimizer, learner state) every this many updates; messages are acked only after. */
  checkpointEvery?: number;
  /** On a graceful stop, train what is buffered (one last update) before the final checkpoint. */
  trainOnStop?: boolean;
}

/** The checkpoints on disk. */
export interface LearnerCheckpointsOptions {
  /** Where the learner keeps its checkpoints and accounting log; default <run.dir>/learner. */
  dir?: string;
  /** Checkpoints kept on disk. */
  keep?: number;
  /**
   * 'hf' also writes each checkpoint's weights as a Hugging Face directory (`ckpt-<n>/hf`: config.json, model.safetensors
   * with Hugging Face names) that transformers' from_pretrained loads; resuming reads the SPADE form beside it.
   */
  format?: 'spade' | 'hf';
}

/** How the learner runs on its host: the trainer's thread, the consumer, restarts and the learner lock. */
export interface LearnerHostOptions {
  /**
   * Run the trainer (onnxruntime compute, optimizer) on its own worker thread, so that updates overlap the
   * samplers and actors of the same process (onnxruntime-node runs a session on the calling thread). false = on
   * the host's main thread, where an update blocks everything else in the process while it runs.
   */
  ownThread?: boolean;
  /** onnxruntime intra-op threads (0 = the role's `threads`, else all cores). */
  threads?: number;
  /** Pull batch size of the consumer. */
  pullBatch?: number;
  /**
   * The actor restarts a learner whose update failed (a trainer thread that died, an onnxruntime error) from its
   * last checkpoint, at most this many times in a run; after that it asks the host to stop.
   */
  maxRestarts?: number;
  /** The learner lock's lease (actor): a standby takes over after this long without a refresh. */
  lockTtlMs?: number;
}

/**
 * Learner group (docs/learners.md): every learner host trains, one update is one synchronous data-parallel round
 * over the bus, instead of one learner behind the lock while the others stand by.
 */
export interface LearnerGroupOptions {
  /** Needs cadence.publishEvery 1; the trainer runs where host.ownThread puts it, as a lone learner's does. */
  enabled?: boolean;
  /** How long a round waits for a member's contribution before dropping that member from the round. */
  roundTimeoutMs?: number;
  /**
   * The round keys kept in the rounds bucket (older ones are pruned): the newest `keepRounds` rounds (more than
   * cadence.checkpointEvery, so a live member acked a pruned round's trajectories) and every round committed within
   * `keepRoundsMs` before those (more than the delivery's ack_wait, so a dead member's came back already).
   */
  keepRounds?: number;
  keepRoundsMs?: number;
}

export interface LearnerOptions {
  /** Model architecture; ignored when a checkpoint (own or init.checkpoint) exists, whose config wins. */
  model?: DecoderConfig;
  init?: LearnerInitOptions;
  objective?: LearnerObjectiveOptions;
  batching?: LearnerBatchingOptions;
  cadence?: LearnerCadenceOptions;
  checkpoints?: LearnerCheckpointsOptions;
  adamw?: AdamWOptions;
  host?: LearnerHostOptions;
  group?: LearnerGroupOptions;
}

export interface ResolvedLearnerOptions {
  model: DecoderConfig;
  init: Required<Omit<LearnerInitOptions, 'checkpoint'>> & Pick<LearnerInitOptions, 'checkpoint'>;
  objective: Required<LearnerObjectiveOptions>;
  batching: Required<LearnerBatchingOptions>;
  cadence: Required<LearnerCadenceOptions>;
  checkpoints: Required<Omit<LearnerCheckpointsOptions, 'dir'>> & Pick<LearnerCheckpointsOptions, 'dir'>;
  adamw: AdamWOptions;
  host: Required<LearnerHostOptions>;
  group: Required<LearnerGroupOptions>;
}

export const DEFAULT_LEARNER_OPTIONS: ResolvedLearnerOptions = {
  model: { ...DEFAULT_POLICY_MODEL, vocab: 2048 },
  init: { tokenizer: 'bpe-2048', seed: 0 },
  objective: { kind: 'behaviour', clipEps: 0.2, tisCap: 2, sampleTemperature: true, epochs: 1, roleWeights: { designer: 1, agent: 1 }, klBeta: 0 },
  batching: {
    eta: 2, skipZeroAdvantage: true, iterationBatches: 0, minibatchTrajectories: 32, minibatchTokens: 16_384, flushAfterMs: 1_000,
    microBatchTokens: 8_192, microBatchPassTokens: DEFAULT_PASS_TOKENS, microBatchCells: 2 ** 23, twoPhase: true,
  },
  cadence: { publishEvery: 1, checkpointEvery: 10, trainOnStop: true },
  checkpoints: { keep: 2, format: 'spade' },
  // The warm start trains at 2e-3; RL steps are noisier and act on a policy worth keeping: 20x smaller.
  adamw: { schedule: { peakLr: 1e-4, warmupSteps: 5, decaySteps: 100_000, minLr: 1e-5 }, weightDecay: 0, maxGradNorm: 1 },
  host: { ownThread: true, threads: 0, pullBatch: 64, maxRestarts: 3, lockTtlMs: 15_000 },
  group: { enabled: false, roundTimeoutMs: 30_000, keepRounds: 64, keepRoundsMs: 600_000 },
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The groups of LearnerOptions (merged field by field); model and adamw are taken whole, as validation does. */
const GROUPS = ['init', 'objective', 'batching', 'cadence', 'checkpoints', 'host', 'group'] as const;

/** `layers` laid over each other, later ones winning field by field within each group. */
export function mergeLearnerOptions(...layers: LearnerOptions[]): LearnerOptions {
  const out: Record<string, unknown> = {};
  for (const layer of layers)
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) continue;
      out[k] = (GROUPS as readonly string[]).includes(k) && isPlainObject(v) ? { ...(isPlainObject(out[k]) ? out[k] : {}), ...v } : v;
    }
  return out as LearnerOptions;
}

const intAtLeast = (min: number) => s.int({ min });
const directory = s.optional(s.string({ min: 1 }));
const dim = s.int({ min: 1, max: 1 << 20 });

/**
 * The model and optimizer fields are typed here so a wrong one fails at start naming its path. `replace`: a given
 * model or adamw object is taken whole, its omitted fields filled by the decoder's and AdamW's own defaults (as
 * before these schemas), not merged over the learner's defaults field by field.
 */
const DECODER_CONFIG_SCHEMA = s.object(
  {
    layers: s.optional(dim), width: s.optional(dim), heads: s.optional(dim), kvHeads: s.optional(dim), contextLength: s.optional(dim),
    vocab: s.optional(s.int({ min: 1, max: 1 << 24 })), ffnHidden: s.optional(dim), normEps: s.optional(s.number({ gt: 0, lt: 1 })), ropeTheta: s.optional(s.number({ gt: 0 })),
  },
  { strict: true, replace: true },
);
const ADAMW_SCHEMA = s.object(
  {
    beta1: s.optional(s.number({ min: 0, lt: 1 })),
    beta2: s.optional(s.number({ min: 0, lt: 1 })),
    eps: s.optional(s.number({ gt: 0 })),
    weightDecay: s.optional(s.number({ min: 0 })),
    /** Infinity: no clipping. */
    maxGradNorm: s.optional(s.number({ gt: 0, infinite: true })),
    schedule: s.optional(s.object(
      { peakLr: s.optional(s.number({ min: 0 })), warmupSteps: s.optional(s.int({ min: 0 })), decaySteps: s.optional(s.int({ min: 0 })), minLr: s.optional(s.number({ min: 0 })) },
      { strict: true },
    )),
  },
  { strict: true, replace: true },
);

/** The resolved form of LearnerOptions; unknown keys are rejected at every depth. */
export const LEARNER_OPTIONS_SCHEMA: s.Check<ResolvedLearnerOptions> = s.object(
  {
    model: DECODER_CONFIG_SCHEMA as s.Check<unknown> as s.Check<DecoderConfig>,
    init: s.object({ checkpoint: directory, tokenizer: s.string({ min: 1 }), seed: intAtLeast(0) }, { strict: true }),
    objective: s.object(
      {
        kind: s.literal('behaviour', 'decoupled'),
        clipEps: s.number({ gt: 0, lt: 1 }),
        tisCap: s.number({ min: 1 }),
        sampleTemperature: s.boolean(),
        epochs: intAtLeast(1),
        roleWeights: s.object({ designer: s.number({ min: 0 }), agent: s.number({ min: 0 }) }, { strict: true }),
        klBeta: s.number({ min: 0 }),
      },
      { strict: true },
    ),
    batching: s.object(
      {
        eta: intAtLeast(0), skipZeroAdvantage: s.boolean(), iterationBatches: intAtLeast(0), minibatchTrajectories: intAtLeast(1),
        minibatchTokens: intAtLeast(1), flushAfterMs: intAtLeast(0), microBatchTokens: intAtLeast(2), microBatchCells: intAtLeast(4),
        microBatchPassTokens: intAtLeast(0), twoPhase: s.boolean(),
      },
      { strict: true },
    ),
    cadence: s.object({ publishEvery: intAtLeast(1), checkpointEvery: intAtLeast(1), trainOnStop: s.boolean() }, { strict: true }),
    checkpoints: s.object({ dir: directory, keep: intAtLeast(1), format: s.literal('spade', 'hf') }, { strict: true }),
    adamw: ADAMW_SCHEMA as s.Check<unknown> as s.Check<AdamWOptions>,
    host: s.object(
      { ownThread: s.boolean(), threads: intAtLeast(0), pullBatch: intAtLeast(1), maxRestarts: intAtLeast(0), lockTtlMs: intAtLeast(100) },
      { strict: true },
    ),
    group: s.object({ enabled: s.boolean(), roundTimeoutMs: intAtLeast(100), keepRounds: intAtLeast(1), keepRoundsMs: intAtLeast(0) }, { strict: true }),
  },
  { strict: true },
);

/** Fills defaults and checks every field; throws OptionsError naming the first bad or unknown one under `path`. */
export function validateLearnerOptions(options: LearnerOptions = {}, path = 'loop.learner'): ResolvedLearnerOptions {
  for (const [key, value] of Object.entries(options)) {
    const to = value === undefined ? undefined : movedLearnerPath(key, value);
    if (to !== undefined) throw new OptionsError(`${path}.${key}`, `no value (set ${path}.${to})`, value, `moved: set ${path}.${to}`);
  }
  const o = resolveOptions(LEARNER_OPTIONS_SCHEMA, DEFAULT_LEARNER_OPTIONS, options, path);
  // The cross-field rules (width a multiple of heads, minLr <= peakLr, ...) are the model engine's: run them now, so
  // they too fail at start under this path rather than on the learner host at its first update.
  const SCHEDULE = new Set(['peakLr', 'minLr', 'warmupSteps', 'decaySteps']);
  const rename = (err: unknown, at: (field: string) => string): never => {
    if (!isModelOptionError(err)) throw err;
    throw new OptionsError(at(err.field), err.expected, err.actual);
  };
  const { group, cadence } = o;
  if (group.enabled && group.keepRounds <= cadence.checkpointEvery)
    throw new OptionsError(`${path}.group.keepRounds`, `an integer > cadence.checkpointEvery (${cadence.checkpointEvery}): a pruned round's trajectories must be acked at a checkpoint first`, group.keepRounds);
  try {
    validateDecoderConfig(o.model);
  } catch (err) {
    rename(err, (f) => `${path}.model.${f.replace(/^decoder\./, '')}`);
  }
  try {
    validateAdamWOptions(o.adamw);
  } catch (err) {
    rename(err, (f) => `${path}.adamw.${SCHEDULE.has(f) ? `schedule.${f}` : f}`);
  }
  return o;
}
