// Who is in the learner group: each member beats into BUCKETS.learners (the last round it applied, or JOINING /
// ABSENT) and follows everyone's beats with one watch, timing each on its own clock. From the beats, a round knows
// which members it waits for.
import type { KV, KvWatchEntry } from '@nats-io/kv';
import { beat, type Beat } from '../../../runtime/beat.js';
import { followKv, type Follow } from '../../../runtime/follow.js';

/**
 * Heartbeat rounds that are not a round applied: a member loading its state to join (expected by the next round, which
 * waits up to the round timeout for it), and a member not taking part (starting up before it loads, or stopping).
 */
export const JOINING = -1;
export const ABSENT = -2;

export interface GroupMembersOptions {
  hostId: string;
  heartbeatMs: number;
  /** A member not heard from for this long (the bucket's TTL) is gone. */
  memberTtlMs: number;
}

export class GroupMembers {
  private readonly beats = new Map<string, { round: number; seen: number }>();
  private watcher: Follow<KvWatchEntry> | null = null;
  private beating: Beat | undefined;
  private left = false;
  /** The last round this member applied (or JOINING / ABSENT). */
  applied: number;
  /** The members of the last round this member applied: expected in the next one while they beat. */
  private lastMembers: string[] = [];

  private constructor(private readonly kv: KV, private readonly options: GroupMembersOptions, round: number) {
    this.applied = round;
  }

  /** Follows the beats, then beats as a member that applied `round` (or JOINING / ABSENT) every heartbeatMs. */
  static async start(kv: KV, options: GroupMembersOptions, round: number): Promise<GroupMembers> {
    const self = new GroupMembers(kv, options, round);
    self.watcher = await followKv(kv);
    void self.follow(self.watcher);
    await self.beat();
    // A missed beat is not an error: the next one, heartbeatMs later, is the retry (a member is gone after memberTtlMs).
    self.beating = beat(`learner group (${options.hostId}): heartbeat`, options.heartbeatMs, () => self.beat(), { onError: () => undefined });
    return self;
  }

  /** The members heard beating within memberTtlMs, with the round each says it applied. */
  get heard(): Record<string, number> {
    const now = Date.now();
    const out: Record<string, number> = {};
    for (const [h, v] of this.beats) if (now - v.seen <= this.options.memberTtlMs) out[h] = v.round;
    return out;
  }

  /** Beats JOINING: the next round's first part waits for this member. */
  async joining(): Promise<void> {
    this.applied = JOINING;
    this.lastMembers = [];
    await this.beat();
  }

  /** Beats ABSENT from now on: new rounds stop expecting this member. */
  async leave(): Promise<void> {
    this.left = true;
    await this.beat().catch(() => undefined);
  }

  /** Beats `round` as applied, with the members it was applied with (expected in the next round while they beat). */
  async appliedRound(round: number, members: string[]): Promise<void> {
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
  live(round: number, firstPart: boolean): string[] {
    const out: string[] = [];
    for (const [key, r] of Object.entries(this.heard)) {
      // Alive while its beats keep arriving (timed on this host's clock, so clock skew between hosts does not matter).
      if (r >= round - 1 || (r === JOINING && firstPart) || (r >= 0 && round === this.applied + 1 && this.lastMembers.includes(key))) out.push(key);
    }
    return out.sort();
  }

  /** Stops beating and following, and deletes this member's beat. */
  async close(): Promise<void> {
    this.beating?.stop();
    await this.watcher?.close();
    await this.kv.delete(this.options.hostId).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    await this.kv.put(this.options.hostId, new TextEncoder().encode(JSON.stringify({ round: this.left ? ABSENT : this.applied, ts: Date.now() })));
  }

  /** Follows the heartbeats: one watch, instead of listing the bucket on every poll. */
  private async follow(iter: AsyncIterable<KvWatchEntry>): Promise<void> {
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
}
