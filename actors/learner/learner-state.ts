// The learner logic's vocabulary: its options, state, the events it is fed and the effects it asks for.
import type { Labeled } from '../loop/messages.js';
import type { DropReason } from './accounting.js';
import type { LearnerState } from './learner-checkpoint.js';
import type { LearnerStats, UpdateReport } from './learner-metrics.js';
import type { Buffered, MinibatchOptions } from './minibatch.js';
import type { ResolvedLearnerOptions } from './options.js';
import type { UpdateStats } from './policy-trainer.js';
import type { Role, Row } from './rows.js';

/** The batching and cadence options, flat: the logic reads no other. */
type Batching = Pick<ResolvedLearnerOptions['batching'], 'eta' | 'skipZeroAdvantage'>;
type Cadence = ResolvedLearnerOptions['cadence'];
export interface LearnerLogicOptions extends MinibatchOptions, Batching, Cadence {
  model: { contextLength: number; vocab: number };
  /** Whether a quiet, incomplete buffer first asks how much work the pipeline still holds (countWorkInFlight). */
  countsWorkInFlight: boolean;
  /**
   * A member of a learner group: every update is a group round, taken part in even with nothing to train (an
   * empty update), and the trajectories the whole round applied are recorded, so redeliveries of them are acked.
   */
  group?: boolean;
  /** This host: of a group round, the first of its members (in host order) uploads the version (`trained.members`). */
  hostId?: string;
}

export interface BatchIn {
  batchId: string;
  iteration: number;
  trajectories: Labeled[];
}

type At = { now: number };
/** `R` is the driver's handle of a held message. */
export type LearnerEvent<R> = At & (
  | { type: 'received'; ref: R; streamSeq: number; batch: BatchIn }
  | { type: 'tick' }
  | { type: 'workInFlight'; count: number }
  /**
   * `groupIds`: in a group, every trajectory the round applied (this member's and the others'); `members`: the
   * round's members in host order (absent for a lone learner, which always uploads).
   */
  | { type: 'trained'; stats: UpdateStats; groupIds?: string[]; members?: string[] }
  /**
   * The group started `round`, the newest round this member may take part in: once started and idle (or counting work
   * in flight), a member that has not applied it takes part, with what is buffered.
   */
  | { type: 'round'; round: number }
  /** Another group member received a labeled batch (counts toward the iteration's completeness). */
  | { type: 'peerBatch'; iteration: number; batchId: string }
  | { type: 'published'; version: number }
  /** Another learner published `version` first (weight sync refused it as stale). */
  | { type: 'publishTaken'; version: number; error: Error }
  /**
   * The learner starts: `published` is the cluster's version (or one handed to this process's samplers whose upload
   * never completed). The logic chooses the version it starts at (publishing it, or keeping its own) and says `started`.
   */
  | { type: 'start'; published: number }
  | { type: 'checkpointed' }
  | { type: 'failed'; error: Error }
  | { type: 'stop' }
  | { type: 'crash' }
);

export type LearnerEffect<R> =
  | { type: 'ack' | 'release' | 'abandon'; ref: R }
  | { type: 'drop'; version: number; reason: DropReason; ids: string[] }
  | { type: 'applied'; update: number; version: number; ids: string[] }
  | { type: 'log'; line: string }
  | { type: 'wake'; ms: number }
  | { type: 'countWorkInFlight' }
  /**
   * Train on `rows`; none (every trajectory had a zero advantage) means an update without compute. `norm`: trained
   * tokens per role of every admitted trajectory, the denominators of the per-role token means.
   */
  | { type: 'train'; rows: Row[]; norm: Record<Role, number>; ids: string[] }
  | { type: 'publish'; version: number }
  /** The learner is at the version it starts from (after `start`): it may be told of the others' rounds. */
  | { type: 'started' }
  | { type: 'checkpoint'; state: LearnerState }
  | { type: 'metrics'; stats: LearnerStats; report: UpdateReport }
  | { type: 'updated'; report: UpdateReport }
  | { type: 'stopped' }
  | { type: 'crashed'; error?: Error };

/** `aligning`: publishing the version it starts at (after `start`). */
export type LearnerPhase = 'idle' | 'aligning' | 'counting' | 'training' | 'publishing' | 'checkpointing' | 'stopped' | 'crashed';

export interface LearnerLogicState<R> {
  phase: LearnerPhase;
  /** The host drains: finish the update in progress, train what is buffered (trainOnStop), checkpoint, release the rest. */
  stopping: boolean;
  /** The `start` event came (it is taken once). */
  started: boolean;
  /** In a group: the newest round the others started that this member may take part in (`round`). */
  groupRound: number;
  finalTrained: boolean;
  stats: LearnerStats;
  buffer: Buffered[];
  inBuffer: Set<string>;
  /** Distinct labeled batches received per iteration (iteration-aligned minibatches). */
  iterationBatches: Map<number, Set<string>>;
  trainedThrough: number;
  /** Held messages and the trajectories each carries. */
  pending: Array<{ ref: R; streamSeq: number; ids: string[] }>;
  /** Ids whose fate is final (dropped on disk, or applied in a checkpointed update); `unsaved`: applied since. */
  final: Set<string>;
  unsaved: Set<string>;
  lastArrival: number;
  checkpointedAt: number;
  update: { items: Buffered[]; keep: Buffered[]; stale: Buffered[]; version: number; report?: UpdateReport } | null;
}

/** The state of a learner that resumed at `stats` with `final` ids from its accounting log. */
export function initialLearnerState<R>(stats: LearnerStats, final: Iterable<string>, now: number): LearnerLogicState<R> {
  return {
    phase: 'idle', stopping: false, started: false, groupRound: 0, finalTrained: false, stats, buffer: [], inBuffer: new Set(), iterationBatches: new Map(), trainedThrough: -1,
    pending: [], final: new Set(final), unsaved: new Set(), lastArrival: now, checkpointedAt: stats.updates, update: null,
  };
}
