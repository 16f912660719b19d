// The learner group's all-reduce over the bus. Each round has parts (the round's metadata, then one gradient per
// epoch); for each part every member pushes its contribution as chunks into a transient stream, and every member sums the
// same contributions in the same order (sorted host ids), so all end with the same bits. Which contributions a part
// sums is decided once, by whoever first creates the part's key in BUCKETS.learnerRounds (compare-and-create): when
// every expected member's contribution is in, or after `roundTimeoutMs` without the missing ones (their members are
// dropped from the round and the rest go on). A member left out of a committed part learns it (GroupExcludedError).
// Every contribution carries the id of its member's process run (`life`), and the round's first part pins each member's
// life: a member restarted as a new process cannot take part, with a second contribution, in a round that its previous
// process's contribution is committed in. The pieces: contributions.ts (chunks), members.ts (heartbeats),
// round-keys.ts (commits, ids, pruning), batches.ts (batch announcements).
import { randomUUID } from 'node:crypto';
import type { Connection } from '../../../runtime/connection.js';
import { followOrdered, type Follow } from '../../../runtime/follow.js';
import { BUCKETS, STREAMS } from '../../../runtime/subjects.js';
import { LearnerStateError } from '../errors.js';
import { BatchAnnouncements } from './batches.js';
import { Contributions, pushContribution } from './contributions.js';
import { GroupExcludedError, GroupOutOfSyncError } from './errors.js';
import { GroupMembers } from './members.js';
import { FIRST_PART, RoundKeys, type Commit } from './round-keys.js';

export { ABSENT, JOINING } from './members.js';

export interface GroupReduceOptions {
  hostId: string;
  /** How long a part waits for a missing contribution before its member is dropped from the round. */
  roundTimeoutMs?: number;
  /** Heartbeat period in BUCKETS.learners; a member not heard from for memberTtlMs (the bucket's TTL) is gone. */
  heartbeatMs?: number;
  memberTtlMs?: number;
  /** Largest chunk pushed (capped below the server's max_payload). */
  chunkBytes?: number;
  /** The id of this process run, sent with every contribution (default: a random UUID per GroupReduce). */
  life?: string;
  /**
   * Pruning of BUCKETS.learnerRounds (prune()): the round keys of the newest `keepRounds` rounds, and of every round
   * committed within `keepMs` before those, are kept (a joiner reads the ids of the rounds it missed).
   */
  keepRounds?: number;
  keepMs?: number;
  /** Where a failed prune is reported. */
  log?: (line: string) => void;
}

export const DEFAULT_GROUP_REDUCE_OPTIONS = { roundTimeoutMs: 10_000, heartbeatMs: 500, memberTtlMs: 2_000, chunkBytes: 4 * 1024 * 1024, keepRounds: 64, keepMs: 600_000 } as const;

/** What a member waits for in an exchange, for diagnostics: the part, the stage, who is in and who is missing. */
export interface GroupWait {
  round: number;
  part: string;
  /** `commit`: deciding who is in (waiting for expected contributions); `gather`: collecting the committed ones. */
  stage: 'commit' | 'gather';
  have: string[];
  missing: string[];
  sinceMs: number;
}

/** The contributions one committed part sums, in sorted host order. */
export interface PartResult {
  members: string[];
  contributions: Uint8Array[];
  /** From this member's push to the commit (waiting for the others included). */
  ms: number;
}

export class GroupReduce {
  readonly options: Required<GroupReduceOptions>;
  /** Contributions read so far; rounds older than the last two are forgotten. */
  private readonly contributions = new Contributions();
  private readonly roundListeners = new Set<(round: number) => void>();
  private closed = false;
  private newest = 0;
  private wait: { round: number; part: string; stage: 'commit' | 'gather'; want: string[]; since: number } | null = null;
  /** The newest round this member pushed a contribution to, and the first round it may take part in after joining(). */
  private pushedTo = 0;
  private joinFrom = 0;
  bytesSent = 0;

  private constructor(
    private readonly conn: Connection,
    private readonly members: GroupMembers,
    private readonly keys: RoundKeys,
    private readonly batches: BatchAnnouncements,
    private readonly sub: Follow<unknown>,
    options: Required<GroupReduceOptions>,
  ) {
    this.options = options;
  }

  /**
   * Subscribes, then joins the group's heartbeats as a member that has applied `round` rounds (or ABSENT: it beats,
   * but no round expects it until joining() or appliedRound() says where it is).
   */
  static async start(conn: Connection, options: GroupReduceOptions, round: number): Promise<GroupReduce> {
    const o: Required<GroupReduceOptions> = { ...DEFAULT_GROUP_REDUCE_OPTIONS, life: randomUUID(), log: () => undefined, ...options };
    const keys = await RoundKeys.open(conn, o);
    // Contributions go through a stream, not core NATS: a member reading slowly (a busy host) is paced by its
    // consumer instead of being cut off by the server as a slow consumer, which loses chunks. No filter: the stream
    // stores only SUBJECTS.learnerReduce.
    const msgs = await followOrdered(conn, { stream: STREAMS.learnerReduce, from: 'new', maxMessages: 4 }); // at most 4 chunks (16 MiB) in flight to this reader
    const members = await GroupMembers.start(await conn.kvm.open(BUCKETS.learners), o, round);
    const self = new GroupReduce(conn, members, keys, new BatchAnnouncements(conn, o.hostId), msgs, o);
    void (async () => {
      try {
        for await (const m of msgs) self.chunk(m);
      } catch {
        // ends with close() or the connection
      }
    })();
    return self;
  }

  /** Calls `fn(round)` when a contribution to a round past the last applied one is first seen (an idle member joins). */
  onRound(fn: (round: number) => void): () => void {
    this.roundListeners.add(fn);
    return () => this.roundListeners.delete(fn);
  }

  /** The first round this member may take part in since it last started joining (0 before). */
  get joinsFrom(): number {
    return this.joinFrom;
  }

  /** The newest round any contribution was seen for. */
  get newestRound(): number {
    return this.newest;
  }

  /** The exchange this member is waiting in, or null (a diagnostic: a stuck group says who it waits for). */
  get waiting(): GroupWait | null {
    const w = this.wait;
    if (w === null) return null;
    const have = [...this.contributions.have(w.round, w.part).keys()];
    return { round: w.round, part: w.part, stage: w.stage, have, missing: w.want.filter((h) => !have.includes(h)), sinceMs: Date.now() - w.since };
  }

  /** The last round this member applied, and the members it hears beating with the round each says it applied. */
  get membership(): { applied: number; beats: Record<string, number> } {
    return { applied: this.members.applied, beats: this.members.heard };
  }

  /** Tells the other members about a labeled batch this one received (they count it toward its iteration). */
  announceBatch(iteration: number, batchId: string): void {
    this.batches.announce(iteration, batchId);
  }

  /** Calls `fn` for every labeled batch another member announces. */
  onBatch(fn: (iteration: number, batchId: string) => void): () => void {
    return this.batches.on(fn);
  }

  /** Records the trajectory ids round `round` applied (every member of the round does), for members that join later. */
  recordIds(round: number, ids: string[]): Promise<void> {
    return this.keys.recordIds(round, ids);
  }

  /** The trajectory ids round `round` applied, or null when they were not recorded (or were pruned: prunedThrough()). */
  roundIds(round: number): Promise<string[] | null> {
    return this.keys.roundIds(round);
  }

  /** Prunes the round keys of old rounds (round-keys.ts); the round's first member calls it. */
  prune(): Promise<number | null> {
    return this.keys.prune();
  }

  /** The last round whose keys were pruned (0 when none): its ids are gone on purpose, not lost. */
  prunedThrough(): Promise<number> {
    return this.keys.prunedThrough();
  }

  /**
   * A member about to load the group's state (at start, or restarting after it fell behind): the next round started
   * by the others waits for it (up to the round timeout) instead of going on without it. Without this, a member whose
   * load takes longer than a round lands one round behind every time and never gets back in (seen on a busy host:
   * excluded from round after round until its restarts ran out).
   */
  async joining(): Promise<void> {
    // A round this member already contributed to (before a restart) may have been committed with that contribution:
    // it must not take part in it again with another (the others would sum and record the old one).
    this.joinFrom = this.pushedTo + 1;
    await this.members.joining();
  }

  /** A member about to stop: new rounds stop expecting it (the round in progress still counts its contribution). */
  leave(): Promise<void> {
    return this.members.leave();
  }

  /**
   * Records that this member applied `round` with `members` (its heartbeat says so; it is expected from the next round
   * on), so the next round also waits for those members still beating, however late their own heartbeat catches up.
   */
  appliedRound(round: number, members: string[] = []): Promise<void> {
    return this.members.appliedRound(round, members);
  }

  /** Live members able to take part in `round`'s `part` (members.ts says who). */
  async liveMembers(round: number, part = FIRST_PART): Promise<string[]> {
    return this.members.live(round, part === FIRST_PART);
  }

  /**
   * Pushes this member's contribution to a part and returns the committed contributions. `expected`: who must be
   * heard before committing without waiting out the timeout (default: the live members able to take part).
   */
  async exchange(round: number, part: string, data: Uint8Array, expected?: string[]): Promise<PartResult> {
    const t0 = performance.now();
    const self = this.options.hostId;
    if (round < this.joinFrom) throw new GroupExcludedError(`${self} restarted during round ${round} and may have contributed to it before: it takes part from round ${this.joinFrom}`, { round, part, members: [] });
    try {
      this.pushedTo = Math.max(this.pushedTo, round);
      this.bytesSent += await pushContribution(this.conn, this.options, round, part, data, this.options.chunkBytes, this.options.roundTimeoutMs);
      const want = expected ?? (await this.liveMembers(round, part));
      this.wait = { round, part, stage: 'commit', want, since: Date.now() };
      const { members, lives } = await this.commit(round, part, want);
      if (!members.includes(self)) throw new GroupExcludedError(`${self} was dropped from round ${round} (${part}): it was committed with ${members.join(', ') || 'nobody'} before this member's contribution came (late past ${this.options.roundTimeoutMs} ms, or not expected: behind the group and not joining)`, { round, part, members });
      const mine = lives[self];
      // An earlier process of this host contributed to the round before it died, and the commit took that contribution
      // (its ids and token counts, which the others sum and record): this process must stay out of the round.
      if (mine !== undefined && mine !== this.options.life) throw new GroupExcludedError(`${self} restarted as a new process during round ${round}: the round's ${part} was committed with the contribution of its previous process (life ${mine}, this one ${this.options.life}); it takes part from round ${round + 1}`, { round, part, members });
      this.wait = { round, part, stage: 'gather', want: members, since: Date.now() };
      const contributions = await this.gather(round, part, members, lives);
      return { members, contributions, ms: performance.now() - t0 };
    } finally {
      this.wait = null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    void this.sub.close(); // not waited for: the loop may still be reading chunks pushed before
    this.batches.close();
    this.contributions.wake();
    await this.members.close();
  }

  private chunk(m: Parameters<Contributions['add']>[0]): void {
    const round = this.contributions.add(m, this.members.applied - 1);
    if (round === null || round <= this.newest) return;
    this.newest = round;
    this.contributions.forgetBefore(round - 2);
    this.keys.forgetBefore(round - 2);
    if (round > this.members.applied) for (const fn of this.roundListeners) fn(round);
  }

  /** The part's committed member set and lives: ours if we create the key first, else the one already there. */
  private async commit(round: number, part: string, expected: string[]): Promise<Commit> {
    const deadline = Date.now() + this.options.roundTimeoutMs;
    const lives = await this.keys.pinnedLives(round, part);
    for (;;) {
      if (this.closed) throw new LearnerStateError(`${this.options.hostId} left the learner group during round ${round} (${part})`, { round, part });
      const done = await this.keys.read(round, part); // a busy server answering late reads as none: ask again
      if (done !== null) return done;
      const have = this.contributions.have(round, part, lives);
      if (expected.every((h) => have.has(h)) || Date.now() >= deadline) {
        // A round so old that its keys were pruned: creating its commit again could split the group.
        const pruned = await this.keys.prunedThrough();
        if (round <= pruned) throw new GroupExcludedError(`${this.options.hostId} is too late for round ${round}: the group pruned rounds up to ${pruned}`, { round, part, members: [] });
        const c: Commit = { members: [...have.keys()], lives: Object.fromEntries(have) };
        if (await this.keys.create(round, part, c)) return c;
        continue; // somebody committed first: read theirs
      }
      await this.contributions.next(Math.min(100, Math.max(1, deadline - Date.now())));
      if (Date.now() < deadline && !expected.every((h) => this.contributions.have(round, part, lives).has(h))) expected = (await this.liveMembers(round, part)).filter((h) => expected.includes(h));
    }
  }

  /** The committed contributions (of the committed lives), waiting for any still arriving; one that never arrives is fatal here. */
  private async gather(round: number, part: string, members: string[], lives: Record<string, string>): Promise<Uint8Array[]> {
    const deadline = Date.now() + this.options.roundTimeoutMs;
    for (;;) {
      const have = this.contributions.have(round, part, Object.keys(lives).length > 0 ? lives : undefined);
      if (members.every((h) => have.has(h))) return members.map((h) => this.contributions.bytes(round, part, h, have.get(h)!));
      if (this.closed) throw new LearnerStateError(`${this.options.hostId} left the learner group during round ${round} (${part})`, { round, part });
      if (Date.now() >= deadline) throw new GroupOutOfSyncError(`round ${round} (${part}) sums ${members.join(', ')}, but the contribution of ${members.filter((h) => !have.has(h)).join(', ')} never reached ${this.options.hostId}`, { round, part, members });
      await this.contributions.next(Math.min(100, deadline - Date.now()));
    }
  }
}
