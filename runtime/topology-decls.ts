// The JetStream topology as data: the streams and the durable pull consumers, one per (role, input), that
// topology.ts creates on the server and permissions.ts grants. Declarations only: nothing here talks to a server.
import { TopologyError } from './errors.js';
import { STREAMS, SUBJECTS, SUBJECT_WILDCARDS } from './subjects.js';

export interface StreamDecl {
  name: string;
  subjects: string[];
  /** transient: in memory on one replica, kept `TRANSIENT_MAX_AGE_MS` and at most `TRANSIENT_MAX_BYTES` (the learner group's round contributions). */
  kind: 'workqueue' | 'events' | 'transient';
}

export const TRANSIENT_MAX_AGE_MS = 30_000;
export const TRANSIENT_MAX_BYTES = 2 * 1024 ** 3;

export interface ConsumerDecl {
  stream: string;
  role: string;
  filter: string;
}

export const STREAM_DECLS: StreamDecl[] = [
  { name: STREAMS.jobsEcho, subjects: [SUBJECTS.jobEcho], kind: 'workqueue' },
  { name: STREAMS.jobsDesign, subjects: [SUBJECTS.jobDesign], kind: 'workqueue' },
  { name: STREAMS.jobsRollout, subjects: [SUBJECTS.jobRollout], kind: 'workqueue' },
  { name: STREAMS.results, subjects: [SUBJECT_WILDCARDS.result], kind: 'events' },
  { name: STREAMS.envs, subjects: [SUBJECT_WILDCARDS.env], kind: 'events' },
  { name: STREAMS.trajectories, subjects: [SUBJECT_WILDCARDS.traj], kind: 'events' },
  { name: STREAMS.metrics, subjects: [SUBJECT_WILDCARDS.metrics], kind: 'events' },
  { name: STREAMS.deadLetters, subjects: [SUBJECT_WILDCARDS.deadLetter], kind: 'events' },
  { name: STREAMS.learnerReduce, subjects: [SUBJECTS.learnerReduce], kind: 'transient' },
];

/** Durable pull consumers, one per (role, input). All replicas of a role share one. */
export const CONSUMER_DECLS: ConsumerDecl[] = [
  { stream: STREAMS.jobsEcho, role: 'echo', filter: SUBJECTS.jobEcho },
  { stream: STREAMS.jobsDesign, role: 'designer', filter: SUBJECTS.jobDesign },
  { stream: STREAMS.jobsRollout, role: 'agent', filter: SUBJECTS.jobRollout },
  { stream: STREAMS.trajectories, role: 'evaluator', filter: SUBJECTS.trajRaw },
  { stream: STREAMS.envs, role: 'evaluator', filter: SUBJECTS.envRejected },
  { stream: STREAMS.trajectories, role: 'learner', filter: SUBJECTS.trajLabeled },
];

/** The consumer declaration of `role` on the stream holding `subject`. */
export function consumerFor(role: string, subject: string): ConsumerDecl {
  const decl = CONSUMER_DECLS.find((c) => c.role === role && c.filter === subject);
  if (!decl) throw new TopologyError(`no consumer declared for role ${role} on ${subject}`, { role, subject });
  return decl;
}
