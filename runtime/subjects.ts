// Every subject, stream, consumer, bucket and object-store name in one place; nothing else spells them.

export const SUBJECTS = {
  /** Work queues (one stream each, retention: work queue). */
  jobEcho: 'spade.job.echo',
  jobDesign: 'spade.job.design',
  jobRollout: 'spade.job.rollout',
  /** Results of the runtime's own test actor. */
  resultEcho: 'spade.result.echo',
  /** Environments as they move through validation. */
  envProposed: 'spade.env.proposed',
  envAccepted: 'spade.env.accepted',
  envRejected: 'spade.env.rejected',
  /** Trajectories: raw from agents and designers, labeled by the evaluator. */
  trajRaw: 'spade.traj.raw',
  trajLabeled: 'spade.traj.labeled',
  /** Metrics: `spade.metrics.<role>`. */
  metrics: (role: string) => `spade.metrics.${role}`,
  /** Dead letters: `spade.dlq.<role>`. */
  deadLetter: (role: string) => `spade.dlq.${role}`,
  /** Core request/reply (queue group per role) for latency-bound sandbox calls. */
  sandboxValidate: 'spade.sandbox.validate',
  sandboxStep: 'spade.sandbox.step',
  /** The raw-client baseline of `npm run bench:runtime`. */
  benchRawJob: 'spade.bench.job',
  benchRawResult: 'spade.bench.result',
} as const;

export const STREAMS = {
  jobsEcho: 'SPADE_JOBS_ECHO',
  jobsDesign: 'SPADE_JOBS_DESIGN',
  jobsRollout: 'SPADE_JOBS_ROLLOUT',
  results: 'SPADE_RESULTS',
  envs: 'SPADE_ENVS',
  trajectories: 'SPADE_TRAJECTORIES',
  metrics: 'SPADE_METRICS',
  deadLetters: 'SPADE_DLQ',
  /** Only created by `npm run bench:runtime`. */
  benchRawJobs: 'SPADE_BENCH_RAW_JOBS',
  benchRawResults: 'SPADE_BENCH_RAW_RESULTS',
} as const;

export const BUCKETS = {
  /** Membership heartbeats; entries expire after host.memberTtlMs. */
  members: 'spade_members',
  /** `version` → current policy version and where its weights are. */
  policy: 'spade_policy',
  /** Environment memory: accepted environments with their stats. */
  envMemory: 'spade_env_memory',
  /** Run bookkeeping of the coordinator (next iteration, run id) so a resumed run continues. */
  run: 'spade_run',
} as const;

/** Keys in the policy bucket. */
export const POLICY_KEYS = { version: 'version' } as const;

export const OBJECT_STORES = { weights: 'spade_weights' } as const;

export const QUEUE_GROUPS = { sandbox: 'spade-sandbox' } as const;

/** The durable consumer name a role uses on a stream. */
export function durableName(role: string): string {
  return `spade-${role}`;
}

/** Wildcards over the subject families above (for followers and `spade tail`, never for publishing). */
export const WILDCARDS = {
  /** Every environment event: proposed, accepted, rejected. */
  envAll: 'spade.env.>',
  /** Every role's metrics. */
  metricsAll: 'spade.metrics.>',
} as const;
