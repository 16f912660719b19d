// The learner's knobs: objective (clip ε, TIS cap, form), staleness bound η, minibatch and micro-batch sizes,
// publish and checkpoint cadence, optimizer, and where the model comes from.
import { DEFAULT_POLICY_MODEL, isModelOptionError, validateAdamWOptions, validateDecoderConfig, type AdamWOptions, type DecoderConfig } from '../../model/index.js';
import { OptionsError, resolveOptions } from '../../runtime/options.js';
import * as s from '../../runtime/schema.js';
import type { ObjectiveKind } from './objective.js';

export interface LearnerOptions {
  /** Model architecture; ignored when a checkpoint (own or initCheckpoint) exists, whose config wins. */
  model?: DecoderConfig;
  /** Base checkpoint directory to start from when the learner has none of its own (e.g. the warm-start one). */
  initCheckpoint?: string;
  /** Tokenizer name or path stored with checkpoints when starting from fresh weights. */
  tokenizer?: string;
  /** Where the learner keeps its checkpoints and accounting log; default <run.dir>/learner. */
  stateDir?: string;
  /** Seed of fresh weights (no checkpoint anywhere). */
  seed?: number;
  /** Maximum staleness in policy versions: a trajectory older than this at update time is dropped. 0 = synchronous. */
  eta?: number;
  objective?: ObjectiveKind;
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
  /**
   * Bound on one pass's attention, rows x padded length²: each attention tensor of the training graph holds heads x
   * this many values, and onnxruntime's arena keeps the largest pass's blocks for good. 2^23 bites only on rows
   * longer than 1024 tokens at the default microBatchTokens (docs/reliability.md, resource limits).
   */
  microBatchCells?: number;
  /** Publish weights (and bump the policy version) every this many updates. */
  publishEvery?: number;
  /** Checkpoint (weights, optimizer, learner state) every this many updates; messages are acked only after. */
  checkpointEvery?: number;
  /** Checkpoints kept on disk. */
  keepCheckpoints?: number;
  /**
   * 'hf' also writes each checkpoint's weights as a Hugging Face directory (`ckpt-<n>/hf`: config.json, model.safetensors
   * with Hugging Face names) that transformers' from_pretrained loads; resuming reads the SPADE form beside it.
   */
  checkpointFormat?: 'spade' | 'hf';
  adamw?: AdamWOptions;
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
  /** On a graceful stop, train what is buffered (one last update) before the final checkpoint. */
  trainOnStop?: boolean;
  /**
   * The actor restarts a learner whose update failed (a trainer thread that died, an onnxruntime error) from its
   * last checkpoint, at most this many times in a run; after that it asks the host to stop.
   */
  maxRestarts?: number;
  /** The learner lock's lease (actor): a standby takes over after this long without a refresh. */
  lockTtlMs?: number;
  /** Skip the compute of zero-advantage trajectories (their gradient is zero); they still count as applied. */
  skipZeroAdvantage?: boolean;
  /**
   * Learner group (docs/learners.md): every learner host trains, one update is one synchronous data-parallel round
   * over the bus, instead of one learner behind the lock while the others stand by. Needs publishEvery 1; the
   * trainer runs on the main thread.
   */
  group?: boolean;
  /** In a group: how long a round waits for a member's contribution before dropping that member from the round. */
  groupRoundTimeoutMs?: number;
  /**
   * In a group: the round keys kept in the rounds bucket (older ones are pruned): the newest `groupKeepRounds` rounds
   * (more than checkpointEvery, so a live member acked a pruned round's trajectories) and every round committed within
   * `groupKeepRoundsMs` before those (more than the delivery's ack_wait, so a dead member's came back already).
   */
  groupKeepRounds?: number;
  groupKeepRoundsMs?: number;
}

export type ResolvedLearnerOptions = Required<Omit<LearnerOptions, 'initCheckpoint' | 'stateDir' | 'model' | 'tokenizer'>> &
  Pick<LearnerOptions, 'initCheckpoint' | 'stateDir'> & { model: DecoderConfig; tokenizer: string };

export const DEFAULT_LEARNER_OPTIONS: Omit<ResolvedLearnerOptions, 'initCheckpoint' | 'stateDir'> = {
  model: { ...DEFAULT_POLICY_MODEL, vocab: 2048 },
  tokenizer: 'bpe-2048',
  seed: 0,
  eta: 2,
  iterationBatches: 0,
  objective: 'behaviour',
  clipEps: 0.2,
  tisCap: 2,
  sampleTemperature: true,
  epochs: 1,
  roleWeights: { designer: 1, agent: 1 },
  minibatchTrajectories: 32,
  minibatchTokens: 16_384,
  flushAfterMs: 1_000,
  microBatchTokens: 8_192,
  microBatchCells: 2 ** 23,
  publishEvery: 1,
  checkpointEvery: 10,
  keepCheckpoints: 2,
  checkpointFormat: 'spade',
  // The warm start trains at 2e-3; RL steps are noisier and act on a policy worth keeping: 20x smaller.
  adamw: { schedule: { peakLr: 1e-4, warmupSteps: 5, decaySteps: 100_000, minLr: 1e-5 }, weightDecay: 0, maxGradNorm: 1 },
  ownThread: true,
  threads: 0,
  pullBatch: 64,
  skipZeroAdvantage: true,
  lockTtlMs: 15_000,
  maxRestarts: 3,
  trainOnStop: true,
  group: false,
  groupRoundTimeoutMs: 30_000,
  groupKeepRounds: 64,
  groupKeepRoundsMs: 600_000,
};

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
    initCheckpoint: directory,
    tokenizer: s.string({ min: 1 }),
    stateDir: directory,
    seed: intAtLeast(0),
    eta: intAtLeast(0),
    objective: s.literal('behaviour', 'decoupled'),
    clipEps: s.number({ gt: 0, lt: 1 }),
    tisCap: s.number({ min: 1 }),
    sampleTemperature: s.boolean(),
    epochs: intAtLeast(1),
    roleWeights: s.object({ designer: s.number({ min: 0 }), agent: s.number({ min: 0 }) }, { strict: true }),
    iterationBatches: intAtLeast(0),
    minibatchTrajectories: intAtLeast(1),
    minibatchTokens: intAtLeast(1),
    flushAfterMs: intAtLeast(0),
    microBatchTokens: intAtLeast(2),
    microBatchCells: intAtLeast(4),
    publishEvery: intAtLeast(1),
    checkpointEvery: intAtLeast(1),
    keepCheckpoints: intAtLeast(1),
    checkpointFormat: s.literal('spade', 'hf'),
    adamw: ADAMW_SCHEMA as s.Check<unknown> as s.Check<AdamWOptions>,
    ownThread: s.boolean(),
    threads: intAtLeast(0),
    pullBatch: intAtLeast(1),
    trainOnStop: s.boolean(),
    maxRestarts: intAtLeast(0),
    lockTtlMs: intAtLeast(100),
    skipZeroAdvantage: s.boolean(),
    group: s.boolean(),
    groupRoundTimeoutMs: intAtLeast(100),
    groupKeepRounds: intAtLeast(1),
    groupKeepRoundsMs: intAtLeast(0),
  },
  { strict: true },
);

/** Fills defaults and checks every field; throws OptionsError naming the first bad or unknown one under `path`. */
export function validateLearnerOptions(options: LearnerOptions = {}, path = 'loop.learner'): ResolvedLearnerOptions {
  const o = resolveOptions(LEARNER_OPTIONS_SCHEMA, DEFAULT_LEARNER_OPTIONS as ResolvedLearnerOptions, options, path);
  // The cross-field rules (width a multiple of heads, minLr <= peakLr, ...) are the model engine's: run them now, so
  // they too fail at start under this path rather than on the learner host at its first update.
  const SCHEDULE = new Set(['peakLr', 'minLr', 'warmupSteps', 'decaySteps']);
  const rename = (err: unknown, at: (field: string) => string): never => {
    if (!isModelOptionError(err)) throw err;
    throw new OptionsError(at(err.field), err.expected, err.actual);
  };
  if (o.group && o.groupKeepRounds <= o.checkpointEvery) throw new OptionsError(`${path}.groupKeepRounds`, `an integer > checkpointEvery (${o.checkpointEvery}): a pruned round's trajectories must be acked at a checkpoint first`, o.groupKeepRounds);
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
