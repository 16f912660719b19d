// Every subject, wildcard, stream, consumer, bucket, KV key and object-store name in one place; nothing else
// spells them (test/runtime/no-subject-literals-outside-subjects.test.ts keeps it so).

/** The first token of every subject; each family below is `spade.<family>.…`. */
const ROOT = 'spade';

/** `spade.<family>.>`: every subject of one family. */
const every = (family: string) => `${ROOT}.${family}.>` as const;

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
  /** The step subject one sandbox host answers on directly (episode affinity): `spade.sandbox.step.host.<hostId>`. */
  sandboxStepOnHost: (hostId: string) => `spade.sandbox.step.host.${hostId}`,
  /** Core (not stored) push of published weights' bytes, the fast lane beside the object store (weight-sync/live.ts). */
  weightsLive: 'spade.weights.live',
  /** Contributions of the learner group's rounds (actors/learner/group/reduce.ts; stream STREAMS.learnerReduce). */
  learnerReduce: 'spade.learner.reduce',
  /** Core announcements of the labeled batches each learner-group member received (iteration-aligned rounds). */
  learnerBatches: 'spade.learner.batches',
  /** The raw-client baseline of `npm run bench:runtime`. */
  benchRawJob: 'spade.bench.job',
  benchRawResult: 'spade.bench.result',
} as const;

/** Wildcards over one subject family (the subjects of an event stream, or what a follower listens to). */
export const SUBJECT_WILDCARDS = {
  /** Everything SPADE publishes. */
  all: `${ROOT}.>`,
  result: every('result'),
  env: every('env'),
  traj: every('traj'),
  metrics: every('metrics'),
  deadLetter: every('dlq'),
} as const;

/** Every stream name starts with this (`spade status` lists only these). */
export const STREAM_PREFIX = 'SPADE_';

export const STREAMS = {
  jobsEcho: 'SPADE_JOBS_ECHO',
  jobsDesign: 'SPADE_JOBS_DESIGN',
  jobsRollout: 'SPADE_JOBS_ROLLOUT',
  results: 'SPADE_RESULTS',
  envs: 'SPADE_ENVS',
  trajectories: 'SPADE_TRAJECTORIES',
  metrics: 'SPADE_METRICS',
  deadLetters: 'SPADE_DLQ',
  /** The learner group's round contributions: in memory, kept 30 s (runtime/topology-decls.ts, kind 'transient'). */
  learnerReduce: 'SPADE_LEARNER_REDUCE',
  /** Only created by `npm run bench:runtime`. */
  benchRawJobs: 'SPADE_BENCH_RAW_JOBS',
  benchRawResults: 'SPADE_BENCH_RAW_RESULTS',
} as const;

export const BUCKETS = {
  /** Membership heartbeats (key: the host id); entries expire after host.memberTtlMs. */
  members: 'spade_members',
  /** `version` → current policy version and where its weights are; also the designer baseline and the learner lease. */
  policy: 'spade_policy',
  /** Environment memory: accepted environments with their stats (key: memoryKey(envId), actors/loop/memory/memory-entry.ts). */
  envMemory: 'spade_env_memory',
  /**
   * The verdict each design job claimed first (key: memoryKey(envId); value: a design.outcome record), so a retried
   * job republishes it instead of a new sample's; entries expire after topology.maxAgeHours, like the env stream.
   */
  designOutcomes: 'spade_design_outcomes',
  /** Run bookkeeping of the coordinator (next iteration, run id) so a resumed run continues. */
  run: 'spade_run',
  /** Learner-group heartbeats (key: host id → the last round it applied); entries expire after host.memberTtlMs. */
  learners: 'spade_learners',
  /** Learner-group round commits (key: roundKey(round, part) → the members whose contributions the round sums). */
  learnerRounds: 'spade_learner_rounds',
} as const;

/** Keys in BUCKETS.policy. */
export const POLICY_KEYS = {
  /** The current policy version record (PolicyVersion message); the weight watchers watch only this key. */
  version: 'version',
  /** The evaluator's designer baseline (JSON, compare-and-set across replicas). */
  designerBaseline: 'designer-baseline',
  /** The single learner's lease (JSON, refreshed with compare-and-set). */
  learnerLock: 'learner-lock',
} as const;

/** Keys in BUCKETS.run (the coordinator's bookkeeping). */
export const RUN_KEYS = { nextIteration: 'next_iteration', runId: 'run_id', baseVersion: 'base_version' } as const;

/** The key of one part of one learner-group round in BUCKETS.learnerRounds. */
export const learnerRoundKey = (round: number, part: string): string => `r${round}.${part}`;

/** The key in BUCKETS.learnerRounds that says up to which round the round keys were pruned. */
export const LEARNER_ROUNDS_PRUNED_KEY = 'pruned';

export const OBJECT_STORES = { weights: 'spade_weights' } as const;

/** Object names in OBJECT_STORES.weights: `policy/v<version>-<random>`, and the learner group's `group/opt-v<version>`. */
export const OBJECT_NAMES = { weightsPrefix: 'policy/v', groupStatePrefix: 'group/opt-v' } as const;

export const QUEUE_GROUPS = { sandbox: 'spade-sandbox' } as const;

/** The durable consumer name a role uses on a stream. */
export function durableName(role: string): string {
  return `spade-${role}`;
}

/** The key of one host's heartbeat in BUCKETS.members: under the role whose user writes it (the host's first role). */
export const memberKey = (role: string, hostId: string): string => `${role}.${hostId}`;

const JS_API = '$JS.API';

/**
 * NATS's own subjects that per-role permissions grant or deny (runtime/permissions.ts): the JetStream API, acks, flow
 * control, reply inboxes, KV keys and object-store chunks, and the streams behind KV buckets and object stores.
 */
export const NATS_SUBJECTS = {
  /** Account-level JetStream calls every user may make: the account's limits and usage, and answering flow control. */
  accountApi: [`${JS_API}.INFO`, '$JS.FC.>'],
  /** Looking at one stream's config and counts and at its consumers (no stored message): a role may for the streams it uses. */
  streamLook: (stream: string) => [`${JS_API}.STREAM.INFO.${stream}`, `${JS_API}.CONSUMER.INFO.${stream}.*`, `${JS_API}.CONSUMER.NAMES.${stream}`, `${JS_API}.CONSUMER.LIST.${stream}`],
  /** Listing every stream (the reader, and the topology managers' declare). */
  listApi: [`${JS_API}.STREAM.NAMES`, `${JS_API}.STREAM.LIST`],
  /** Getting one stored message of a stream (or a KV bucket's or object store's, through its stream). */
  streamGet: (stream: string) => [`${JS_API}.STREAM.MSG.GET.${stream}`, `${JS_API}.DIRECT.GET.${stream}`, `${JS_API}.DIRECT.GET.${stream}.>`],
  /**
   * Following a stream through an ephemeral consumer the server names: the 2.9 subject without a name, on which the
   * server refuses a durable (`consumer expected to be ephemeral`); its pulls, acks and delete.
   */
  streamFollow: (stream: string) => [
    `${JS_API}.CONSUMER.CREATE.${stream}`, `${JS_API}.CONSUMER.DELETE.${stream}.*`,
    `${JS_API}.CONSUMER.MSG.NEXT.${stream}.*`, `$JS.ACK.${stream}.>`, `$JS.ACK.*.*.${stream}.>`,
  ],
  /**
   * Creating a consumer under a name the client picks (`CONSUMER.CREATE.<stream>.<name>[.<filter>]`): nats.js names every
   * ordered consumer, KV watch and key listing and object get so. The subject does not say whether the body asks for a
   * durable, so only roles that watch a bucket or store (or read a stream in order) get it, and only on those.
   */
  streamWatch: (stream: string) => [`${JS_API}.CONSUMER.CREATE.${stream}.>`],
  /** Declaring one stream (or a KV bucket's or object store's): create and update. */
  streamAdmin: (stream: string) => [`${JS_API}.STREAM.CREATE.${stream}`, `${JS_API}.STREAM.UPDATE.${stream}`],
  /** The reply-inbox prefix of a role's connections (nats.js `inboxPrefix`): JetStream answers, PubAcks, request/reply. */
  inboxPrefix: (role: string) => `_INBOX.${role}`,
  /** Where a role's replies come back: only its own user may subscribe here. */
  inbox: (role: string) => `_INBOX.${role}.>`,
  /** Creating, updating or deleting one durable consumer (the 2.9 durable subject and the named one, with or without a filter). */
  consumerAdmin: (stream: string, name: string) => [`${JS_API}.CONSUMER.CREATE.${stream}.${name}`, `${JS_API}.CONSUMER.CREATE.${stream}.${name}.>`, `${JS_API}.CONSUMER.DURABLE.CREATE.${stream}.${name}`, `${JS_API}.CONSUMER.DELETE.${stream}.${name}`],
  /** Pulling from and acking one durable consumer (acks in the 2.9 form and the newer one with domain and account hash). */
  consumerUse: (stream: string, name: string) => [`${JS_API}.CONSUMER.MSG.NEXT.${stream}.${name}`, `$JS.ACK.${stream}.${name}.>`, `$JS.ACK.*.*.${stream}.${name}.>`],
  /** A KV key's subject (a put, create, update or delete publishes to it); key `>` = every key. */
  kvKey: (bucket: string, key: string) => `$KV.${bucket}.${key}`,
  /** Writing an object store: its chunk and meta subjects, and the purge that overwrites or deletes an object. */
  objectWrite: (store: string) => [`$O.${store}.>`, `${JS_API}.STREAM.PURGE.OBJ_${store}`],
  /** Purging a stream's messages (stream purge API): the learner group prunes its old round keys this way. */
  streamPurge: (stream: string) => `${JS_API}.STREAM.PURGE.${stream}`,
  /** The meta subject of one object, purged with a pruned object; `encoded`: its name as nats.js encodes it (objectMetaToken). */
  objectMeta: (store: string, encoded: string) => `$O.${store}.M.${encoded}`,
  /** The subject of one object's chunks (its `nuid`): weight-sync/upload.ts writes them itself. */
  objectChunks: (store: string, nuid: string) => `$O.${store}.C.${nuid}`,
  kvStream: (bucket: string) => `KV_${bucket}`,
  objectStream: (store: string) => `OBJ_${store}`,
} as const;

/** An object's name as nats.js's object store spells it in its meta subject: padded base64url. */
export const objectMetaToken = (name: string): string => Buffer.from(name).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
