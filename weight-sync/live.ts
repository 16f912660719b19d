// The fast lane of weight sync: while the publisher uploads a version to the object store it also pushes the same
// bytes over core NATS, so a watcher already holds them when the KV record names them and skips the download.
// Nothing pushed is trusted: the watcher uses the bytes only when their size and sha256 match the KV record (and then
// runs every payload check as for a download); anything else falls back to the object store. Memory is bounded:
// at most `keep` assemblies, each no bigger than the model's largest payload.
import { headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from '@nats-io/nats-core';
import { SUBJECTS } from '../runtime/subjects.js';
import { sha256Hex } from './payload.js';

/** Header names of a pushed chunk: the object it belongs to, where it starts, and the object's total size. */
export const LIVE_HEADERS = { object: 'Spade-Object', offset: 'Spade-Offset', total: 'Spade-Total' } as const;

/** Pushes `bytes` as chunks of at most `chunkBytes` (fire and forget: a lost chunk costs a download, not a version). */
export function pushLive(nc: NatsConnection, object: string, bytes: Uint8Array, chunkBytes: number): void {
  // Room for the headers under the server's max_payload (1 MiB by default on a server of its own).
  chunkBytes = Math.max(1024, Math.min(chunkBytes, (nc.info?.max_payload ?? 1024 * 1024) - 4096));
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    const h = natsHeaders();
    h.set(LIVE_HEADERS.object, object);
    h.set(LIVE_HEADERS.offset, String(at));
    h.set(LIVE_HEADERS.total, String(bytes.length));
    nc.publish(SUBJECTS.weightsLive, bytes.subarray(at, Math.min(bytes.length, at + chunkBytes)), { headers: h });
  }
}

/** The receivers of this process: a publisher here hands them its bytes directly (no bus, no copy). */
const local = new Set<LiveReceiver>();

/**
 * The newest version handed to this process's receivers whose KV record was never written (its upload failed, or
 * it is still uploading); -1 when none. Watchers may apply handed-over weights before their record (the watcher's
 * `applyHandedOver`), so such a version counts as taken in this process: no other publisher here may publish it
 * with other weights (WeightPublisher refuses, and a restarted learner continues above it).
 */
let uncommitted = -1;

/** Offers a published object's bytes (payload of `version`) to every receiver in this process; returns how many there are. */
export function handOffLocal(object: string, bytes: Uint8Array, version: number): number {
  if (local.size > 0) uncommitted = Math.max(uncommitted, version);
  for (const r of local) r.offer(object, bytes);
  return local.size;
}

/** The record of `version` is written: handed-over versions up to it are committed. */
export function commitHandOff(version: number): void {
  if (version >= uncommitted) uncommitted = -1;
}

/** See `uncommitted` above. */
export function uncommittedHandOff(): number {
  return uncommitted;
}

/**
 * sha256 of bytes, once per array in this process: the watchers of one host that were handed the same bytes in
 * process hash them once between them (pushed bytes are each receiver's own copy, so each hashes its own).
 */
const hashed = new WeakMap<Uint8Array, string>();
export function sha256Once(bytes: Uint8Array): string {
  let h = hashed.get(bytes);
  if (h === undefined) hashed.set(bytes, (h = sha256Hex(bytes)));
  return h;
}

interface Assembly {
  bytes: Uint8Array;
  received: number;
  offsets: Set<number>;
  done: Array<() => void>;
}

/** What a receiver did with pushed bytes (for the benchmark and the docs' figures). */
export interface LiveStats {
  /** Versions whose bytes came from the push. */
  used: number;
  /** Versions that had to be downloaded (nothing pushed, pushed too late, or the push did not match the record). */
  missed: number;
  /** Chunks ignored: malformed headers, bigger than the model's payload, or outside their object. */
  refusedChunks: number;
}

export class LiveReceiver {
  readonly stats: LiveStats = { used: 0, missed: 0, refusedChunks: 0 };
  private readonly assemblies = new Map<string, Assembly>();
  /**
   * The bus push subscription, dropped while a publisher in this process hands its bytes over (its push would only
   * cost this process parsing them again) and taken up again once a version arrives that was not handed over.
   */
  private sub: Subscription | null = null;
  /** Called once an object's bytes are complete (pushed or handed over), before anyone takes them. */
  onComplete: ((object: string, bytes: Uint8Array) => void) | null = null;
  /** Called after onComplete for bytes a publisher in this process handed over (not for pushed ones). */
  onHandedOver: ((object: string, bytes: Uint8Array) => void) | null = null;

  constructor(private readonly nc: NatsConnection, private readonly maxBytes: number, private readonly keep = 2) {
    this.subscribe();
    local.add(this);
  }

  /** Whether the bus push is subscribed (see `sub`). */
  get subscribed(): boolean {
    return this.sub !== null;
  }

  /** Whole bytes from a publisher in this process (handOffLocal); checked against the record like pushed ones. */
  offer(object: string, bytes: Uint8Array): void {
    if (bytes.length < 1 || bytes.length > this.maxBytes) return;
    this.sub?.unsubscribe();
    this.sub = null;
    const waiting = this.assemblies.get(object)?.done ?? [];
    this.put(object, { bytes, received: bytes.length, offsets: new Set(), done: [] });
    this.onComplete?.(object, bytes);
    this.onHandedOver?.(object, bytes);
    for (const d of waiting) d();
  }

  /**
   * The complete pushed bytes of `object`, waiting up to `waitMs` for a push still arriving; null when there is
   * none (the caller downloads). The bytes are handed over once: the assembly is forgotten.
   */
  async take(object: string, waitMs: number): Promise<Uint8Array | null> {
    const a = this.assemblies.get(object);
    if (a === undefined && this.sub === null) this.subscribe(); // published elsewhere: the next one comes by the bus
    if (a !== undefined && a.received < a.bytes.length && waitMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        a.done.push(() => (clearTimeout(timer), resolve()));
      });
    }
    this.assemblies.delete(object);
    return a !== undefined && a.received === a.bytes.length ? a.bytes : null;
  }

  close(): void {
    local.delete(this);
    this.closed = true;
    this.sub?.unsubscribe();
    this.sub = null;
    for (const a of this.assemblies.values()) for (const d of a.done.splice(0)) d();
    this.assemblies.clear();
  }

  private closed = false;

  private subscribe(): void {
    if (this.closed || this.nc.isClosed()) return;
    this.sub = this.nc.subscribe(SUBJECTS.weightsLive, { callback: (err, m) => (err ? undefined : this.chunk(m)) });
  }

  private chunk(m: Msg): void {
    const object = m.headers?.get(LIVE_HEADERS.object) ?? '';
    const offset = Number(m.headers?.get(LIVE_HEADERS.offset));
    const total = Number(m.headers?.get(LIVE_HEADERS.total));
    const data = m.data;
    if (object === '' || !Number.isSafeInteger(offset) || !Number.isSafeInteger(total) || offset < 0 || total < 1 || total > this.maxBytes || offset + data.length > total) {
      this.stats.refusedChunks++;
      return;
    }
    const a = this.assembly(object, total);
    // A complete one (handed over in process, or pushed twice) takes nothing more: its bytes may be shared.
    if (a.received >= a.bytes.length || a.bytes.length !== total || a.offsets.has(offset)) {
      this.stats.refusedChunks++;
      return;
    }
    a.bytes.set(data, offset);
    a.offsets.add(offset);
    a.received += data.length;
    if (a.received >= total) {
      this.onComplete?.(object, a.bytes);
      for (const d of a.done.splice(0)) d();
    }
  }

  private assembly(object: string, total: number): Assembly {
    return this.assemblies.get(object) ?? this.put(object, { bytes: new Uint8Array(total), received: 0, offsets: new Set(), done: [] });
  }

  private put(object: string, a: Assembly): Assembly {
    this.assemblies.delete(object);
    // Keep the newest few: an object nobody asks for (a version the watcher coalesced past) is dropped in turn.
    while (this.assemblies.size >= this.keep) this.assemblies.delete(this.assemblies.keys().next().value!);
    this.assemblies.set(object, a);
    return a;
  }
}
