// The learner group's all-reduce over the bus. Each round has parts (the round's metadata, then one gradient per
// epoch); for each part every member pushes its contribution as chunks into a transient stream, and every member sums the
// same contributions in the same order (sorted host ids), so all end with the same bits. Which contributions a part
// sums is decided once, by whoever first creates the part's key in BUCKETS.learnerRounds (compare-and-create): when
// every expected member's contribution is in, or after `roundTimeoutMs` without the missing ones (their members are
// dropped from the round and the rest go on). A member left out of a committed part learns it (GroupExcludedError).
// Every contribution carries the id of its member's process run (`life`), and the round's first part pins each member's
// life: a member restarted as a new process cannot take part, with a second contribution, in a round that its previous
// process's contribution is committed in.
import { randomUUID } from 'node:crypto';
import { headers as natsHeaders, type MsgHdrs, type Subscription } from '@nats-io/nats-core';
import { DeliverPolicy } from '@nats-io/jetstream';
import type { KV, KvEntry } from '@nats-io/kv';
import type { Connection } from '../../runtime/connection.js';
import { BUCKETS, LEARNER_ROUNDS_PRUNED_KEY, NATS_SUBJECTS, STREAMS, SUBJECTS, learnerRoundKey } from '../../runtime/subjects.js';
import { GroupExcludedError, GroupOutOfSyncError } from './group-errors.js';
import { LearnerStateError } from './errors.js';

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

/**
 * Heartbeat rounds that are not a round applied: a member loading its state to join (expected by the next round, which
 * waits up to the round timeout for it), and a member not taking part (starting up before it loads, or stopping).
 */
export const JOINING = -1;
export const ABSENT = -2;

export const DEFAULT_GROUP_REDUCE_OPTIONS = { roundTimeoutMs: 10_000, heartbeatMs: 500, memberTtlMs: 2_000, chunkBytes: 4 * 1024 * 1024, keepRounds: 64, keepMs: 600_000 } as const;

const H = { round: 'Spade-Round', part: 'Spade-Part', host: 'Spade-Host', life: 'Spade-Life', offset: 'Spade-Offset', total: 'Spade-Total' } as const;

/** The part whose commit pins each member's life for the whole round. */
const FIRST_PART = 'meta';

interface Assembly {
  host: string;
  life: string;
  bytes: Uint8Array;
  received: number;
  /** When it completed (a counter): of two complete contributions of one host, the newer life is taken. */
  done: number;
}

/** A committed part: the members it sums and the life of each one's contribution. */
interface Commit {
  members: string[];
  lives: Record<string, string>;
}

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
  /** Contributions by `round/part` then `host life`. Rounds older than the last two are forgotten. */
  private readonly parts = new Map<string, Map<string, Assembly>>();
  /** The lives each round's first part pinned, as this member committed or read them. */
  private readonly pinned = new Map<number, Record<string, string>>();
  private completed = 0;
  private closed = false;
  /** The meta commits this member made or read, oldest first, until they are pruned: where a prune cuts the bucket. */
  private metaCommits: Array<{ round: number; revision: number; ts: number }> = [];
  private prunedTo = 0;
  private readonly waiters = new Set<() => void>();
  private readonly roundListeners = new Set<(round: number) => void>();
  private readonly batchListeners = new Set<(iteration: number, batchId: string) => void>();
  private batchSub: Subscription | null = null;
  private left = false;
  private timer: NodeJS.Timeout | undefined;
  private applied = 0;
  private readonly beats = new Map<string, { round: number; seen: number }>();
  private watcher: { stop(): void } | null = null;
  /** The members of the last round this member applied: expected in the next one while they beat. */
  private lastMembers: string[] = [];
  private newest = 0;
  private wait: { round: number; part: string; stage: 'commit' | 'gather'; want: string[]; since: number } | null = null;
  /** The newest round this member pushed a contribution to, and the first round it may take part in after joining(). */
  private pushedTo = 0;
  private joinFrom = 0;
  bytesSent = 0;

  private constructor(private readonly conn: Connection, private readonly members: KV, private readonly rounds: KV, private readonly sub: { stop(): void }, options: GroupReduceOptions) {
    this.options = { ...DEFAULT_GROUP_REDUCE_OPTIONS, life: randomUUID(), log: () => undefined, ...options };
  }

  /**
   * Subscribes, then joins the group's heartbeats as a member that has applied `round` rounds (or ABSENT: it beats,
   * but no round expects it until joining() or appliedRound() says where it is).
   */
  static async start(conn: Connection, options: GroupReduceOptions, round: number): Promise<GroupReduce> {
    const [members, rounds] = await Promise.all([conn.kvm.open(BUCKETS.learners), conn.kvm.open(BUCKETS.learnerRounds)]);
    // Contributions go through a stream, not core NATS: a member reading slowly (a busy host) is paced by its
    // consumer instead of being cut off by the server as a slow consumer, which loses chunks. No filter: the stream
    // stores only SUBJECTS.learnerReduce (a filter would be nats-server 2.10's `filter_subjects` in some clients).
    const oc = await conn.js.consumers.get(STREAMS.learnerReduce, { deliver_policy: DeliverPolicy.New });
    const msgs = await oc.consume({ max_messages: 4 }); // at most 4 chunks (16 MiB) in flight to this reader
    const self: GroupReduce = new GroupReduce(conn, members, rounds, msgs, options);
    void (async () => {
      try {
        for await (const m of msgs) self.chunk(m);
      } catch {
        // ends with close() or the connection
      }
    })();
    self.applied = round;
    const iter = await members.watch();
    self.watcher = iter;
    void self.follow(iter);
    await self.beat();
    self.timer = setInterval(() => void self.beat().catch(() => undefined), self.options.heartbeatMs);
    self.timer.unref();
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
    const have = [...this.have(w.round, w.part).keys()];
    return { round: w.round, part: w.part, stage: w.stage, have, missing: w.want.filter((h) => !have.includes(h)), sinceMs: Date.now() - w.since };
  }

  /** The last round this member applied, and the members it hears beating with the round each says it applied. */
  get membership(): { applied: number; beats: Record<string, number> } {
    const now = Date.now();
    const beats: Record<string, number> = {};
    for (const [h, v] of this.beats) if (now - v.seen <= this.options.memberTtlMs) beats[h] = v.round;
    return { applied: this.applied, beats };
  }

  /** Tells the other members about a labeled batch this one received (they count it toward its iteration). */
  announceBatch(iteration: number, batchId: string): void {
    const h = natsHeaders();
    h.set(H.host, this.options.hostId);
    this.conn.nc.publish(SUBJECTS.learnerBatches, new TextEncoder().encode(JSON.stringify({ iteration, batchId })), { headers: h });
  }

  /** Calls `fn` for every labeled batch another member announces. */
  onBatch(fn: (iteration: number, batchId: string) => void): () => void {
    this.batchSub ??= this.conn.nc.subscribe(SUBJECTS.learnerBatches, {
      callback: (err, m) => {
        if (err || m.headers?.get(H.host) === this.options.hostId) return;
        try {
          const b = JSON.parse(new TextDecoder().decode(m.data)) as { iteration: unknown; batchId: unknown };
          if (Number.isSafeInteger(b.iteration) && typeof b.batchId === 'string') for (const f of this.batchListeners) f(b.iteration as number, b.batchId);
        } catch {
          // not an announcement: ignored
        }
      },
    });
    this.batchListeners.add(fn);
    return () => this.batchListeners.delete(fn);
  }

  /** Records the trajectory ids round `round` applied (the round's first member does), for members that join later. */
  async recordIds(round: number, ids: string[]): Promise<void> {
    await this.rounds.put(learnerRoundKey(round, 'ids'), new TextEncoder().encode(JSON.stringify(ids)));
  }

  /** The trajectory ids round `round` applied, or null when they were not recorded (its first member died first). */
  async roundIds(round: number): Promise<string[] | null> {
    const e = await this.rounds.get(learnerRoundKey(round, 'ids'));
    if (e?.operation !== 'PUT') return null;
    const ids = JSON.parse(new TextDecoder().decode(e.value)) as unknown;
    return Array.isArray(ids) && ids.every((x) => typeof x === 'string') ? ids : null;
  }

  /**
   * Deletes the keys of old rounds from BUCKETS.learnerRounds so the bucket does not grow with the run: every round
   * up to P, where round P + keepRounds is the newest round whose meta was committed at least keepMs ago. Round P's
   * trajectories are then final everywhere they can come back from: a live member acked them at a checkpoint within
   * keepRounds rounds (keepRounds > checkpointEvery), and a member that died before that did so over keepMs ago
   * (keepMs > ack_wait), so they were redelivered to, and recognised by, a member that had their ids. One stream purge
   * below the sequence of round P + 1's meta commit (every key of a later round is written after it) removes them
   * with no delete markers left behind; the `pruned` key says how far, so a joiner tells a pruned round from a lost
   * record. Returns P, or null when nothing was due. Called by each round's first member.
   */
  async prune(): Promise<number | null> {
    const now = Date.now();
    const old = this.metaCommits.filter((c) => now - c.ts >= this.options.keepMs).at(-1);
    const to = old === undefined ? 0 : old.round - this.options.keepRounds;
    if (to <= this.prunedTo) return null;
    const cut = this.metaCommits.find((c) => c.round === to + 1) ?? (await this.rounds.get(learnerRoundKey(to + 1, FIRST_PART)).then((e) => (e ? { revision: e.revision } : null)));
    if (cut === null || cut === undefined) return null;
    await this.rounds.put(LEARNER_ROUNDS_PRUNED_KEY, new TextEncoder().encode(JSON.stringify({ round: to, ts: now })));
    await this.conn.jsm.streams.purge(NATS_SUBJECTS.kvStream(BUCKETS.learnerRounds), { seq: cut.revision });
    this.prunedTo = to;
    this.metaCommits = this.metaCommits.filter((c) => c.round > to);
    return to;
  }

  /** The last round whose keys were pruned (0 when none): its ids are gone on purpose, not lost. */
  async prunedThrough(): Promise<number> {
    const e = await this.rounds.get(LEARNER_ROUNDS_PRUNED_KEY);
    if (e?.operation !== 'PUT') return 0;
    const v = JSON.parse(new TextDecoder().decode(e.value)) as { round: unknown };
    return Number.isSafeInteger(v.round) ? (v.round as number) : 0;
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
    this.applied = JOINING;
    this.lastMembers = [];
    await this.beat();
  }

  /** A member about to stop: new rounds stop expecting it (the round in progress still counts its contribution). */
  async leave(): Promise<void> {
    this.left = true;
    await this.beat().catch(() => undefined);
  }

  /**
   * Records that this member applied `round` with `members` (its heartbeat says so; it is expected from the next round
   * on), so the next round also waits for those members still beating, however late their own heartbeat catches up.
   */
  async appliedRound(round: number, members: string[] = []): Promise<void> {
    this.applied = round;
    this.lastMembers = members;
    await this.beat();
  }

  /**
   * Live members able to take part in `round`: those that applied round - 1, the last round's members still beating,
   * and, for the round's first part (`meta`), those joining. A joining member is never waited for in a later part: it
   * is loading, so it is not computing this round's gradient (a member that restarted mid-round beats JOINING at once,
   * and the round goes on without it instead of waiting out the timeout).
   */
  async liveMembers(round: number, part = 'meta'): Promise<string[]> {
    const out: string[] = [];
    const now = Date.now();
    for (const [key, v] of this.beats) {
      // Alive while its beats keep arriving (timed on this host's clock, so clock skew between hosts does not matter).
      if (now - v.seen > this.options.memberTtlMs) continue;
      if (v.round >= round - 1 || (v.round === JOINING && part === 'meta') || (v.round >= 0 && round === this.applied + 1 && this.lastMembers.includes(key))) out.push(key);
    }
    return out.sort();
  }

  /** Follows the heartbeats: one watch, instead of listing the bucket on every poll. */
  private async follow(iter: AsyncIterable<KvEntry>): Promise<void> {
    try {
      for await (const e of iter) {
        if (e.operation !== 'PUT' || e.value.length === 0) {
          this.beats.delete(e.key);
          continue;
        }
        try {
          const v = JSON.parse(new TextDecoder().decode(e.value)) as { round: unknown };
          if (Number.isSafeInteger(v.round)) this.beats.set(e.key, { round: v.round as number, seen: Date.now() });
        } catch {
          // not a heartbeat: ignored
        }
      }
    } catch {
      // the watch ends with the connection
    }
  }

  /**
   * Pushes this member's contribution to a part and returns the committed contributions. `expected`: who must be
   * heard before committing without waiting out the timeout (default: the live members able to take part).
   */
  async exchange(round: number, part: string, data: Uint8Array, expected?: string[]): Promise<PartResult> {
    const t0 = performance.now();
    if (round < this.joinFrom) throw new GroupExcludedError(`${this.options.hostId} restarted during round ${round} and may have contributed to it before: it takes part from round ${this.joinFrom}`, { round, part, members: [] });
    try {
      await this.push(round, part, data);
      const want = expected ?? (await this.liveMembers(round, part));
      this.wait = { round, part, stage: 'commit', want, since: Date.now() };
      const { members, lives } = await this.commit(round, part, want);
      if (!members.includes(this.options.hostId)) throw new GroupExcludedError(`${this.options.hostId} was dropped from round ${round} (${part}): it was committed with ${members.join(', ') || 'nobody'} before this member's contribution came (late past ${this.options.roundTimeoutMs} ms, or not expected: behind the group and not joining)`, { round, part, members });
      const mine = lives[this.options.hostId];
      // An earlier process of this host contributed to the round before it died, and the commit took that contribution
      // (its ids and token counts, which the others sum and record): this process must stay out of the round.
      if (mine !== undefined && mine !== this.options.life) throw new GroupExcludedError(`${this.options.hostId} restarted as a new process during round ${round}: the round's ${part} was committed with the contribution of its previous process (life ${mine}, this one ${this.options.life}); it takes part from round ${round + 1}`, { round, part, members });
      this.wait = { round, part, stage: 'gather', want: members, since: Date.now() };
      const contributions = await this.gather(round, part, members, lives);
      return { members, contributions, ms: performance.now() - t0 };
    } finally {
      this.wait = null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.watcher?.stop();
    this.sub.stop();
    this.batchSub?.unsubscribe();
    for (const w of this.waiters) w();
    await this.members.delete(this.options.hostId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    await this.members.put(this.options.hostId, new TextEncoder().encode(JSON.stringify({ round: this.left ? ABSENT : this.applied, ts: Date.now() })));
  }

  private async push(round: number, part: string, data: Uint8Array): Promise<void> {
    const max = Math.max(1024, Math.min(this.options.chunkBytes, (this.conn.nc.info?.max_payload ?? 1024 * 1024) - 4096));
    const total = data.length;
    this.pushedTo = Math.max(this.pushedTo, round);
    const acks: Promise<unknown>[] = [];
    for (let at = 0; at === 0 || at < total; at += max) {
      const h = natsHeaders();
      for (const [k, v] of [[H.round, round], [H.part, part], [H.host, this.options.hostId], [H.life, this.options.life], [H.offset, at], [H.total, total]] as const) h.set(k, String(v));
      const chunk = data.subarray(at, Math.min(total, at + max));
      acks.push(this.conn.js.publish(SUBJECTS.learnerReduce, chunk, { headers: h, timeout: this.options.roundTimeoutMs }));
      this.bytesSent += chunk.length;
    }
    await Promise.all(acks);
  }

  private chunk(m: { headers?: MsgHdrs; data: Uint8Array }): void {
    const get = (k: string): string => m.headers?.get(k) ?? '';
    const round = Number(get(H.round)), offset = Number(get(H.offset)), total = Number(get(H.total));
    const part = get(H.part), host = get(H.host), life = get(H.life);
    if (!Number.isSafeInteger(round) || !Number.isSafeInteger(offset) || !Number.isSafeInteger(total) || !part || !host || offset + m.data.length > total) return;
    if (round < this.applied - 1) return; // a round long done
    const key = `${round}/${part}`;
    let byLife = this.parts.get(key);
    if (byLife === undefined) this.parts.set(key, (byLife = new Map()));
    let a = byLife.get(`${host} ${life}`);
    if (a === undefined || a.bytes.length !== total) byLife.set(`${host} ${life}`, (a = { host, life, bytes: new Uint8Array(total), received: 0, done: 0 }));
    a.bytes.set(m.data, offset);
    a.received += m.data.length;
    if (round > this.newest) {
      this.newest = round;
      for (const [k] of this.parts) if (Number(k.split('/')[0]) < round - 2) this.parts.delete(k);
      for (const [r] of this.pinned) if (r < round - 2) this.pinned.delete(r);
      if (round > this.applied) for (const fn of this.roundListeners) fn(round);
    }
    if (a.received >= total) {
      a.done = ++this.completed;
      for (const w of [...this.waiters]) w();
    }
  }

  /**
   * The complete contributions to a part, host → life, in host order. With `lives` (the round's pinned ones) only a
   * contribution of a host's pinned life counts; without, a host's newest complete one.
   */
  private have(round: number, part: string, lives?: Record<string, string>): Map<string, string> {
    const best = new Map<string, Assembly>();
    for (const a of this.parts.get(`${round}/${part}`)?.values() ?? []) {
      if (a.received !== a.bytes.length || (lives !== undefined && lives[a.host] !== a.life)) continue;
      if ((best.get(a.host)?.done ?? -1) < a.done) best.set(a.host, a);
    }
    return new Map([...best.keys()].sort().map((h) => [h, best.get(h)!.life]));
  }

  /** The lives the round's first part pinned (null when it is not committed: this part pins its own). */
  private async pinnedLives(round: number, part: string): Promise<Record<string, string> | undefined> {
    if (part === FIRST_PART) return undefined;
    if (!this.pinned.has(round)) {
      const e = await this.rounds.get(learnerRoundKey(round, FIRST_PART)).catch(() => null);
      if (e?.operation !== 'PUT') return undefined;
      this.pinned.set(round, (JSON.parse(new TextDecoder().decode(e.value)) as Partial<Commit>).lives ?? {});
    }
    return this.pinned.get(round);
  }

  /** The part's committed member set and lives: ours if we create the key first, else the one already there. */
  private async commit(round: number, part: string, expected: string[]): Promise<Commit> {
    const key = learnerRoundKey(round, part);
    const deadline = Date.now() + this.options.roundTimeoutMs;
    const lives = await this.pinnedLives(round, part);
    const done = (c: Commit, revision: number, ts: number): Commit => {
      if (part !== FIRST_PART) return c;
      this.pinned.set(round, c.lives);
      if (round > (this.metaCommits.at(-1)?.round ?? this.prunedTo)) this.metaCommits.push({ round, revision, ts });
      return c;
    };
    for (;;) {
      if (this.closed) throw new LearnerStateError(`${this.options.hostId} left the learner group during round ${round} (${part})`, { round, part });
      const e = await this.rounds.get(key).catch(() => null); // a busy server answering late: ask again
      if (e?.operation === 'PUT') {
        // Timed on this host's clock when it saw the commit (no clock skew; never earlier than the commit itself).
        const c = JSON.parse(new TextDecoder().decode(e.value)) as Partial<Commit> & { members: string[] };
        return done({ members: c.members, lives: c.lives ?? {} }, e.revision, Date.now());
      }
      const have = this.have(round, part, lives);
      if (expected.every((h) => have.has(h)) || Date.now() >= deadline) {
        const c: Commit = { members: [...have.keys()], lives: Object.fromEntries(have) };
        try {
          const ts = Date.now();
          return done(c, await this.rounds.create(key, new TextEncoder().encode(JSON.stringify({ ...c, ts }))), ts);
        } catch {
          continue; // somebody committed first: read theirs
        }
      }
      await this.nextChunk(Math.min(100, Math.max(1, deadline - Date.now())));
      if (Date.now() < deadline && !expected.every((h) => this.have(round, part, lives).has(h))) expected = (await this.liveMembers(round, part)).filter((h) => expected.includes(h));
    }
  }

  /** The committed contributions (of the committed lives), waiting for any still arriving; one that never arrives is fatal here. */
  private async gather(round: number, part: string, members: string[], lives: Record<string, string>): Promise<Uint8Array[]> {
    const deadline = Date.now() + this.options.roundTimeoutMs;
    for (;;) {
      const have = this.have(round, part, Object.keys(lives).length > 0 ? lives : undefined);
      if (members.every((h) => have.has(h))) {
        const byLife = this.parts.get(`${round}/${part}`)!;
        return members.map((h) => byLife.get(`${h} ${have.get(h)!}`)!.bytes);
      }
      if (this.closed) throw new LearnerStateError(`${this.options.hostId} left the learner group during round ${round} (${part})`, { round, part });
      if (Date.now() >= deadline) throw new GroupOutOfSyncError(`round ${round} (${part}) sums ${members.join(', ')}, but the contribution of ${members.filter((h) => !have.has(h)).join(', ')} never reached ${this.options.hostId}`, { round, part, members });
      await this.nextChunk(Math.min(100, deadline - Date.now()));
    }
  }

  private nextChunk(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => (clearTimeout(t), this.waiters.delete(done), resolve());
      const t = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}
