// Membership: each host puts a heartbeat into a KV bucket whose TTL removes hosts that stop beating.
import { hostname } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { KV } from '@nats-io/kv';
import { beat, type Beat } from './beat.js';
import { bucketKeys } from './bucket-keys.js';
import { MemberHeartbeat, type MemberHeartbeatBody } from './message-types.js';
import { decode, encode } from './messages.js';
import type { Connection } from './connection.js';
import { BUCKETS, memberKey } from './subjects.js';

/** The host's counters each heartbeat carries. */
export type MemberStats = Pick<MemberHeartbeatBody, 'inflight' | 'handled' | 'failed' | 'deadLettered' | 'draining' | 'rssMb' | 'shedding' | 'cpuSec'>;


export class Membership {
  private beating: Beat | undefined;
  private kv: KV | undefined;
  private readonly lag = monitorEventLoopDelay({ resolution: 20 });
  private readonly startedAt = Date.now();
  /** Under the role whose user writes it: a role's user may write only its own roles' heartbeats (permissions.ts). */
  private readonly key: string;

  constructor(
    private readonly conn: Connection,
    readonly hostId: string,
    private readonly roles: string[],
    private readonly intervalMs: number,
    private readonly stats: () => MemberStats,
  ) {
    this.key = memberKey(conn.role ?? roles[0] ?? 'host', hostId);
  }

  async start(): Promise<void> {
    this.kv = await this.conn.kvm.open(BUCKETS.members);
    this.lag.enable();
    await this.beat();
    // A missed beat is not an error: the next one is the retry (a member is gone only after the bucket's TTL).
    this.beating = beat(`host ${this.hostId}: heartbeat`, this.intervalMs, () => this.beat(), { onError: () => undefined });
  }

  private async beat(): Promise<void> {
    const lagMs = this.lag.max / 1e6;
    this.lag.reset();
    await this.kv!.put(
      this.key,
      encode(MemberHeartbeat, {
        hostId: this.hostId,
        hostname: hostname(),
        pid: process.pid,
        roles: this.roles,
        startedAt: this.startedAt,
        ts: Date.now(),
        eventLoopLagMs: Number.isFinite(lagMs) ? lagMs : 0,
        ...this.stats(),
      }),
    );
  }

  async stop(): Promise<void> {
    this.beating?.stop();
    this.lag.disable();
    await this.kv?.delete(this.key).catch(() => undefined);
  }
}

/** Reads the live members (entries younger than the bucket TTL). */
export async function listMembers(conn: Connection) {
  const kv = await conn.kvm.open(BUCKETS.members);
  const out = [];
  for (const key of await bucketKeys(conn.jsm, BUCKETS.members)) {
    const e = await kv.get(key);
    if (e && e.operation === 'PUT' && e.value.length) out.push(decode(MemberHeartbeat, e.value));
  }
  return out.sort((a, b) => a.hostId.localeCompare(b.hostId));
}
