// How a learner's updates combine with the other learner hosts': the one interface the learner (learner.ts) and its
// actor (learner-actor.ts) call for it. A lone learner's reducer is the identity, and the learner lock keeps it alone
// in the cluster; a learner group's (group/reducer.ts) sums the members' gradients over the bus, one round an update.
// load() binds a reducer to the learner it loads: a host runs one learner at a time (a restart loads the next).
import type { KV } from '@nats-io/kv';
import type { Connection } from '../../runtime/connection.js';
import { BUCKETS } from '../../runtime/subjects.js';
import { LearnerStateError } from './errors.js';
import { GroupReducer, type GroupRoundStats } from './group/index.js';
import { LearnerLock } from './learner-lock.js';
import { loadLearnerModel, type LoadedLearnerModel } from './learner-model.js';
import type { ResolvedLearnerOptions } from './options.js';
import { noUpdateStats, type UpdateStats } from './policy-trainer.js';
import type { Role, Row } from './rows.js';
import type { TrainerHandle } from './trainer-thread.js';

/**
 * One update as the reducer made it; in a group, with every trajectory the round applied (all members') and the
 * round's stats, whose members (in host order) tell the learner's logic who uploads the version.
 */
export interface ReducedUpdate {
  stats: UpdateStats & { group?: Pick<GroupRoundStats, 'members'> };
  groupIds?: string[];
}

/** What a learner hears from the others: they began a round it may take part in, another received a labeled batch. */
export interface PeerEvents {
  round(round: number): void;
  peerBatch(iteration: number, batchId: string): void;
}

export interface GradientReducer {
  /** Every update is a round with the others, taken even with nothing to train (the logic's `group`). */
  readonly lockstep: boolean;
  /** Starts this host's learner with `launch` once it may train (at once, or later, from standing by). */
  takePart(launch: () => Promise<void>): Promise<void>;
  /** Loads the learner's model (learner-model.ts) as this reducer trains it, and binds the reducer to it. */
  load(stateDir: string, o: ResolvedLearnerOptions, threads: number): Promise<LoadedLearnerModel>;
  /** One update with `rows` as this learner's share (`ids`: their trajectories). */
  update(rows: readonly Row[], norm: Record<Role, number>, ids: string[]): Promise<ReducedUpdate>;
  /** Publishes what goes with a version beside its weights (retried with them). */
  published(version: number): Promise<void>;
  /** Tells the others about a labeled batch this learner received (they count it toward its iteration). */
  announceBatch(iteration: number, batchId: string): void;
  /** Calls `on` for what the others do; returns the call that stops it. */
  listen(on: PeerEvents): () => void;
  /** The newest round the others began that this learner may take part in (0: none). */
  openRound(): number;
  /** What it knows of the others, for diagnostics (a stuck group says whom it waits for). */
  status(): Record<string, unknown>;
  /** Before the learner stops: the others stop counting on this host (a standby stops waiting). */
  leave(): Promise<void>;
  /** After the learner stopped. */
  close(): Promise<void>;
}

/** The identity: a lone learner's update is its own gradients' step. Alone here, it trains at once. */
export class IdentityReducer implements GradientReducer {
  readonly lockstep = false;
  private trainer: TrainerHandle | null = null;

  async takePart(launch: () => Promise<void>): Promise<void> {
    await launch();
  }

  async load(stateDir: string, o: ResolvedLearnerOptions, threads: number): Promise<LoadedLearnerModel> {
    const m = await loadLearnerModel(stateDir, o, threads);
    this.trainer = m.trainer;
    return m;
  }

  async update(rows: readonly Row[], norm: Record<Role, number>): Promise<ReducedUpdate> {
    const t = this.trainer;
    if (t === null) throw new LearnerStateError('an update before the learner loaded its model', {});
    // Trajectories that all had zero advantage: no compute, no optimizer step.
    return { stats: rows.length > 0 ? await t.update(rows, norm) : noUpdateStats(t.step) };
  }

  async published(): Promise<void> {}

  announceBatch(): void {}

  listen(): () => void {
    return () => undefined;
  }

  openRound(): number {
    return 0;
  }

  status(): Record<string, unknown> {
    return {};
  }

  async leave(): Promise<void> {}

  async close(): Promise<void> {}
}

export interface LockedReducerOptions {
  hostId: string;
  ttlMs: number;
  /** Aborted when the host stops: a standby gives up waiting. */
  signal: AbortSignal;
  log: (line: string) => void;
  /** The lock was lost while held: the learner must stop at once. */
  onLost: () => void;
}

/**
 * The lone learner of a cluster: the identity, trained only by the host holding the learner lock (learner-lock.ts),
 * which owns the weights and the version. Another host stands by without pulling, and takes over when the lock is
 * released or expires.
 */
export class LockedReducer extends IdentityReducer {
  private lock: LearnerLock | null = null;
  private standby: Promise<void> | null = null;

  constructor(private readonly kv: KV, private readonly o: LockedReducerOptions) {
    super();
  }

  /** The common case (lock free) launches in line, so a bad checkpoint or option fails the host's start. */
  override async takePart(launch: () => Promise<void>): Promise<void> {
    const { hostId, ttlMs, signal, log, onLost } = this.o;
    const launchWith = async (l: LearnerLock): Promise<void> => {
      this.lock = l;
      await launch();
    };
    const first = await LearnerLock.tryAcquire(this.kv, hostId, ttlMs, log, onLost);
    if ('lock' in first) return launchWith(first.lock);
    log(`learner: ${first.holder} holds the learner lock; this host stands by`);
    this.standby = LearnerLock.acquire(this.kv, hostId, ttlMs, signal, log, onLost)
      .then(launchWith)
      .catch((err: Error) => (signal.aborted ? undefined : log(`learner: standby failed: ${err.message}`)));
  }

  override async leave(): Promise<void> {
    await this.standby;
  }

  override async close(): Promise<void> {
    await this.lock?.release();
  }
}

export interface ReducerSeat {
  hostId: string;
  /** The host's membership TTL (config host.memberTtlMs): a group member not heard from for this long is gone. */
  memberTtlMs: number;
  signal: AbortSignal;
  /** Where the group's lines go, and the lock's. */
  log: (line: string) => void;
  lockLog: (line: string) => void;
  onLost: () => void;
}

/** This learner host's reducer: a member of the learner group when `group.enabled`, else the lone learner. */
export async function openReducer(conn: Connection, o: ResolvedLearnerOptions, seat: ReducerSeat): Promise<GradientReducer> {
  const { hostId, memberTtlMs, signal, log, lockLog, onLost } = seat;
  const g = o.group;
  if (g.enabled) return GroupReducer.start(conn, { hostId, roundTimeoutMs: g.roundTimeoutMs, memberTtlMs, keepRounds: g.keepRounds, keepMs: g.keepRoundsMs, log });
  return new LockedReducer(await conn.kvm.open(BUCKETS.policy), { hostId, ttlMs: o.host.lockTtlMs, signal, log: lockLog, onLost });
}
