// Message types of the self-play loop. Flow:
//   design.job ─▶ designer ─▶ env.accepted | env.rejected (+ rollout.job per accepted env), first claimed as a design.outcome
//   rollout.job ─▶ agent (k episodes with hint, k without) ─▶ traj.group
//   traj.group, env.rejected ─▶ evaluator (regret, rewards, advantages, memory) ─▶ traj.labeled
//   traj.labeled ─▶ learner ─▶ new weights (object store + policy version in KV)
// Token ids / log-probs / versions are packed typed arrays (actors/loop/packed.ts).
import { defineMessage, type BodyOf } from '../../runtime/messages.js';
import * as s from '../../runtime/schema.js';

const id = s.string({ min: 1, max: 200 });

/** One sampled completion: what the learner needs to recompute log π and weight it. */
export const SAMPLE = s.object({
  /** Int32 token ids of the prompt (context). */
  promptTokens: s.bytes(),
  /** Int32 ids of the sampled tokens. */
  tokens: s.bytes(),
  /** Float32 behaviour log π(token) under the distribution it was drawn from (temperature, top-p), one per sampled token. */
  logprobs: s.bytes(),
  /** Int32 policy version that sampled each token. */
  versions: s.bytes(),
  /**
   * Temperature of the distribution the tokens were drawn from (0 = greedy). The learner scores them at it, so that
   * its importance ratio compares like with like (absent: 1, messages of schema v1 writers).
   */
  temperature: s.optional(s.number({ min: 0, max: 1000 })),
  /** The decoded text of `tokens` (the environment module, or the action). */
  text: s.string(),
  finishReason: s.string(),
});
export type Sample = s.Infer<typeof SAMPLE>;

export const ENV_SPEC = s.object({ name: s.string(), description: s.string(), hint: s.string(), maxTurns: s.int({ min: 1, max: 64 }) });

export const DOC_REF = s.object({ id: s.string(), source: s.optional(s.string()), kind: s.optional(s.string()) });

/** Which environment, from which design job and loop iteration: the fields accepted and rejected environments share. */
const ENV_ORIGIN = { envId: id, jobId: id, iteration: s.int({ min: 0 }) };

/** The coordinator asks for one new environment. */
export const DesignJob = defineMessage(
  'design.job',
  1,
  s.object({
    jobId: id,
    iteration: s.int({ min: 0 }),
    seed: s.int({ min: 0 }),
    /** Sample with at least this policy version (the coordinator's staleness bound; η = 0 makes it the newest). */
    minPolicyVersion: s.optional(s.int({ min: 0 })),
    /**
     * Play this accepted environment again instead of designing one (loop.replay): the coordinator's level buffer
     * picked it. The designer publishes it under the job's own envId, with `replayOf`, and samples nothing.
     */
    replay: s.optional(s.object({ envId: id, family: s.string(), code: s.string({ min: 1 }) })),
  }),
);

export const ACCEPTED_ENV = s.object({
  ...ENV_ORIGIN,
  code: s.string({ min: 1 }),
  codeHash: s.string({ min: 1 }),
  spec: ENV_SPEC,
  /** 'reasoning' | 'tools' | 'games' | 'unknown' (designer's guess from the memory entries it imitated). */
  family: s.string(),
  doc: s.optional(DOC_REF),
  /** Memory entries shown in the prompt (parents). */
  parents: s.array(s.string()),
  /** Absent for library environments (fixed-environment baseline) and replays. */
  designer: s.optional(SAMPLE),
  /** A replay (loop.replay): the envId of the accepted environment played again, whose code this is. */
  replayOf: s.optional(id),
  validation: s.object({ oracleMean: s.optional(s.number()), randomMean: s.optional(s.number()), constantMean: s.optional(s.number()), ms: s.number({ min: 0 }) }),
  /** Document words the module brings in that its parent lacks, and the same against another document (the control). */
  grounding: s.optional(s.object({ docWords: s.int({ min: 0 }), controlWords: s.int({ min: 0 }) })),
});
export type AcceptedEnv = s.Infer<typeof ACCEPTED_ENV>;

export const EnvAccepted = defineMessage('env.accepted', 1, ACCEPTED_ENV);

export const EnvRejected = defineMessage(
  'env.rejected',
  1,
  s.object({
    ...ENV_ORIGIN,
    code: s.string(),
    /** The failing validation stage (parse, contract, determinism, …, hint-leak). */
    stage: s.string(),
    reason: s.string(),
    doc: s.optional(DOC_REF),
    parents: s.array(s.string()),
    designer: SAMPLE,
  }),
);

/** Play `k` episodes without the hint and `k` with it. */
export const RolloutJob = defineMessage(
  'rollout.job',
  1,
  s.object({ env: ACCEPTED_ENV, k: s.int({ min: 1, max: 256 }), seedBase: s.int({ min: 0 }), minPolicyVersion: s.optional(s.int({ min: 0 })) }),
);

/**
 * The verdict a design job claimed first (KV bucket BUCKETS.designOutcomes, one key per envId): exactly one of
 * `rollout` (accepted: the rollout job, whose `env` is the env.accepted body) or `rejected` (the env.rejected body).
 * A retried job republishes this record's outputs instead of its own new sample (actors/designer/outcome-store.ts).
 */
export const DesignOutcome = defineMessage(
  'design.outcome',
  1,
  s.object({ envId: id, rollout: s.optional(RolloutJob.schema), rejected: s.optional(EnvRejected.schema) }),
);

export const EPISODE = s.object({
  trajId: id,
  hinted: s.boolean(),
  seed: s.int({ min: 0 }),
  /** One sample per agent turn. */
  turns: s.array(SAMPLE),
  rewards: s.array(s.number()),
  return: s.number(),
  terminated: s.boolean(),
  /** Set when the episode ended on an environment fault (typed sandbox error code). */
  error: s.optional(s.string()),
});
export type Episode = s.Infer<typeof EPISODE>;

/** All 2k episodes of one environment, published by the agent that played them. */
export const TrajectoryGroup = defineMessage('traj.group', 1, s.object({ groupId: id, env: ACCEPTED_ENV, episodes: s.array(EPISODE, { min: 1 }) }));

export const LABELED = s.object({
  trajId: id,
  role: s.literal('designer', 'agent'),
  /** The samples to train on (one for the designer; one per turn for the agent). */
  samples: s.array(SAMPLE),
  /** Scalar advantage applied to every token of the samples. */
  advantage: s.number(),
  reward: s.number(),
});
export type Labeled = s.Infer<typeof LABELED>;

/** Evaluator output for one environment (accepted or rejected): its labeled trajectories and stats. */
export const LabeledBatch = defineMessage(
  'traj.labeled',
  1,
  s.object({
    batchId: id,
    envId: id,
    iteration: s.int({ min: 0 }),
    accepted: s.boolean(),
    regret: s.optional(s.number()),
    returnHint: s.optional(s.number()),
    returnNoHint: s.optional(s.number()),
    feasible: s.optional(s.boolean()),
    designerReward: s.number(),
    /** The environment's replayOf: these episodes played an earlier accepted environment again. */
    replayOf: s.optional(id),
    trajectories: s.array(LABELED),
  }),
);

// Body types, derived from the schemas above (never written by hand).
export type DesignJobBody = BodyOf<typeof DesignJob>;
export type EnvRejectedBody = BodyOf<typeof EnvRejected>;
export type RolloutJobBody = BodyOf<typeof RolloutJob>;
export type DesignOutcomeBody = BodyOf<typeof DesignOutcome>;
export type TrajectoryGroupBody = BodyOf<typeof TrajectoryGroup>;
export type LabeledBatchBody = BodyOf<typeof LabeledBatch>;
