// The contributions of the learner group's rounds as they travel: pushed as chunks (headers say round, part, host,
// the host's process run and where the chunk goes) into the transient reduce stream, and reassembled on every member
// by round, part, host and life. Which contribution of a host counts is the caller's choice (the lives a round pinned).
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/nats-core';
import type { Connection } from '../../../runtime/connection.js';
import { delay } from '../../../runtime/delay.js';
import { SUBJECTS } from '../../../runtime/subjects.js';

const H = { round: 'Spade-Round', part: 'Spade-Part', host: 'Spade-Host', life: 'Spade-Life', offset: 'Spade-Offset', total: 'Spade-Total' } as const;

/** Where a contribution comes from: the member and its process run. */
export interface Contributor {
  hostId: string;
  life: string;
}

interface Assembly {
  host: string;
  life: string;
  bytes: Uint8Array;
  received: number;
  /** When it completed (a counter): of two complete contributions of one host, the newer life is taken. */
  done: number;
}

/**
 * Pushes one contribution as chunks of at most `chunkBytes` (and below the server's max_payload), each acked by the
 * stream within `timeoutMs`; returns the bytes pushed.
 */
export async function pushContribution(conn: Connection, from: Contributor, round: number, part: string, data: Uint8Array, chunkBytes: number, timeoutMs: number): Promise<number> {
  const max = Math.max(1024, Math.min(chunkBytes, (conn.nc.info?.max_payload ?? 1024 * 1024) - 4096));
  const total = data.length;
  const acks: Promise<unknown>[] = [];
  let sent = 0;
  for (let at = 0; at === 0 || at < total; at += max) {
    const h = natsHeaders();
    for (const [k, v] of [[H.round, round], [H.part, part], [H.host, from.hostId], [H.life, from.life], [H.offset, at], [H.total, total]] as const) h.set(k, String(v));
    const chunk = data.subarray(at, Math.min(total, at + max));
    acks.push(conn.js.publish(SUBJECTS.learnerReduce, chunk, { headers: h, timeout: timeoutMs }));
    sent += chunk.length;
  }
  await Promise.all(acks);
  return sent;
}

/** The chunks one member has read, reassembled; waiters wake whenever a contribution completes. */
export class Contributions {
  /** By `round/part`, then `host life`. */
  private readonly parts = new Map<string, Map<string, Assembly>>();
  private readonly waiters = new Set<() => void>();
  private completed = 0;

  /** Adds one chunk; returns its round, or null when it is not a chunk of ours or of a round before `oldest`. */
  add(m: { headers?: MsgHdrs; data: Uint8Array }, oldest: number): number | null {
    const get = (k: string): string => m.headers?.get(k) ?? '';
    const round = Number(get(H.round)), offset = Number(get(H.offset)), total = Number(get(H.total));
    const part = get(H.part), host = get(H.host), life = get(H.life);
    if (!Number.isSafeInteger(round) || !Number.isSafeInteger(offset) || !Number.isSafeInteger(total) || !part || !host || offset + m.data.length > total) return null;
    if (round < oldest) return null; // a round long done
    const key = `${round}/${part}`;
    let byLife = this.parts.get(key);
    if (byLife === undefined) this.parts.set(key, (byLife = new Map()));
    let a = byLife.get(`${host} ${life}`);
    if (a === undefined || a.bytes.length !== total) byLife.set(`${host} ${life}`, (a = { host, life, bytes: new Uint8Array(total), received: 0, done: 0 }));
    a.bytes.set(m.data, offset);
    a.received += m.data.length;
    if (a.received >= total) {
      a.done = ++this.completed;
      this.wake();
    }
    return round;
  }

  /**
   * The complete contributions to a part, host → life, in host order. With `lives` (the round's pinned ones) only a
   * contribution of a host's pinned life counts; without, a host's newest complete one.
   */
  have(round: number, part: string, lives?: Record<string, string>): Map<string, string> {
    const best = new Map<string, Assembly>();
    for (const a of this.parts.get(`${round}/${part}`)?.values() ?? []) {
      if (a.received !== a.bytes.length || (lives !== undefined && lives[a.host] !== a.life)) continue;
      if ((best.get(a.host)?.done ?? -1) < a.done) best.set(a.host, a);
    }
    return new Map([...best.keys()].sort().map((h) => [h, best.get(h)!.life]));
  }

  /** The bytes of one complete contribution. */
  bytes(round: number, part: string, host: string, life: string): Uint8Array {
    return this.parts.get(`${round}/${part}`)!.get(`${host} ${life}`)!.bytes;
  }

  /** Forgets the contributions of rounds before `round`. */
  forgetBefore(round: number): void {
    for (const [k] of this.parts) if (Number(k.split('/')[0]) < round) this.parts.delete(k);
  }

  /** Resolves when the next contribution completes, or after `ms` (none when the deadline is past). */
  async next(ms: number): Promise<void> {
    const woken = new AbortController();
    const done = (): void => woken.abort();
    this.waiters.add(done);
    try {
      await delay('learner group: waiting for contributions', ms, woken.signal);
    } finally {
      this.waiters.delete(done);
    }
  }

  /** Wakes every waiter (a contribution completed, or the member is closing). */
  wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
