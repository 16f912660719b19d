// The learner group's round keys in BUCKETS.learnerRounds: each part's commit (created once, compare-and-create: the
// members it sums and the life of each one's contribution), each round's trajectory ids, and their pruning.
import type { KV } from '@nats-io/kv';
import type { Connection } from '../../../runtime/connection.js';
import { BUCKETS, LEARNER_ROUNDS_PRUNED_KEY, NATS_SUBJECTS, learnerRoundKey } from '../../../runtime/subjects.js';

/** The part whose commit pins each member's life for the whole round. */
export const FIRST_PART = 'meta';

/** A committed part: the members it sums and the life of each one's contribution. */
export interface Commit {
  members: string[];
  lives: Record<string, string>;
}

export interface RoundKeysOptions {
  /** Rounds kept behind the newest one old enough (see prune()). */
  keepRounds: number;
  keepMs: number;
}

const enc = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
const dec = <T>(b: Uint8Array): T => JSON.parse(new TextDecoder().decode(b)) as T;

export class RoundKeys {
  /** The lives each round's first part pinned, as this member committed or read them. */
  private readonly pinned = new Map<number, Record<string, string>>();
  /** The meta commits this member made or read, oldest first, until they are pruned: where a prune cuts the bucket. */
  private metaCommits: Array<{ round: number; revision: number; ts: number }> = [];
  private prunedTo = 0;

  constructor(private readonly conn: Connection, private readonly kv: KV, private readonly options: RoundKeysOptions) {}

  static async open(conn: Connection, options: RoundKeysOptions): Promise<RoundKeys> {
    return new RoundKeys(conn, await conn.kvm.open(BUCKETS.learnerRounds), options);
  }

  /** The part's commit, or null when nobody committed it yet (or the server answered late: the caller asks again). */
  async read(round: number, part: string): Promise<Commit | null> {
    const e = await this.kv.get(learnerRoundKey(round, part)).catch(() => null);
    if (e?.operation !== 'PUT') return null;
    const c = dec<Partial<Commit> & { members: string[] }>(e.value);
    // Timed on this host's clock when it saw the commit (no clock skew; never earlier than the commit itself).
    return this.seen(round, part, { members: c.members, lives: c.lives ?? {} }, e.revision);
  }

  /** Creates the part's commit; false when somebody committed it first. */
  async create(round: number, part: string, c: Commit): Promise<boolean> {
    try {
      this.seen(round, part, c, await this.kv.create(learnerRoundKey(round, part), enc({ ...c, ts: Date.now() })));
      return true;
    } catch {
      return false;
    }
  }

  /** The lives the round's first part pinned (undefined for the first part itself, or when it is not committed). */
  async pinnedLives(round: number, part: string): Promise<Record<string, string> | undefined> {
    if (part === FIRST_PART) return undefined;
    if (!this.pinned.has(round)) await this.read(round, FIRST_PART);
    return this.pinned.get(round);
  }

  /** Forgets the pinned lives of rounds before `round`. */
  forgetBefore(round: number): void {
    for (const [r] of this.pinned) if (r < round) this.pinned.delete(r);
  }

  /** Records the trajectory ids round `round` applied (every member of the round does), for members that join later. */
  async recordIds(round: number, ids: string[]): Promise<void> {
    await this.kv.put(learnerRoundKey(round, 'ids'), enc(ids));
  }

  /** The trajectory ids round `round` applied, or null when they were not recorded (or were pruned). */
  async roundIds(round: number): Promise<string[] | null> {
    const e = await this.kv.get(learnerRoundKey(round, 'ids'));
    if (e?.operation !== 'PUT') return null;
    const ids = dec<unknown>(e.value);
    return Array.isArray(ids) && ids.every((x) => typeof x === 'string') ? ids : null;
  }

  /**
   * Deletes the keys of old rounds so the bucket does not grow with the run: every round up to P, where round
   * P + keepRounds is the newest round whose meta commit this member saw at least keepMs ago. Round P's trajectories
   * are then final everywhere they can come back from: a live member acked them at a checkpoint within keepRounds
   * rounds (keepRounds > checkpointEvery), and a member that died before that did so over keepMs ago (keepMs >
   * ack_wait), so they were redelivered to, and recognised by, a member that had their ids. One stream purge below the
   * sequence of round P + 1's meta commit (every key of a later round is written after it) removes them with no
   * delete markers left behind; the `pruned` key says how far, so a joiner tells a pruned round from a lost record.
   * Returns P, or null when nothing was due.
   */
  async prune(): Promise<number | null> {
    const now = Date.now();
    const old = this.metaCommits.filter((c) => now - c.ts >= this.options.keepMs).at(-1);
    const to = old === undefined ? 0 : old.round - this.options.keepRounds;
    if (to <= this.prunedTo) return null;
    const cut = this.metaCommits.find((c) => c.round === to + 1) ?? (await this.kv.get(learnerRoundKey(to + 1, FIRST_PART)));
    if (cut === null || cut === undefined) return null;
    await this.kv.put(LEARNER_ROUNDS_PRUNED_KEY, enc({ round: to, ts: now }));
    await this.conn.jsm.streams.purge(NATS_SUBJECTS.kvStream(BUCKETS.learnerRounds), { seq: cut.revision });
    this.prunedTo = to;
    this.metaCommits = this.metaCommits.filter((c) => c.round > to);
    return to;
  }

  /** The last round whose keys were pruned (0 when none): its ids are gone on purpose, not lost. */
  async prunedThrough(): Promise<number> {
    const e = await this.kv.get(LEARNER_ROUNDS_PRUNED_KEY);
    if (e?.operation !== 'PUT') return 0;
    const v = dec<{ round: unknown }>(e.value);
    return Number.isSafeInteger(v.round) ? (v.round as number) : 0;
  }

  /** Notes a commit this member made or read: a first part pins the round's lives and marks where a prune can cut. */
  private seen(round: number, part: string, c: Commit, revision: number): Commit {
    if (part !== FIRST_PART) return c;
    this.pinned.set(round, c.lives);
    if (round > (this.metaCommits.at(-1)?.round ?? this.prunedTo)) this.metaCommits.push({ round, revision, ts: Date.now() });
    return c;
  }
}
