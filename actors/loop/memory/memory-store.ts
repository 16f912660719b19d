// The environment memory over its KV bucket: create-if-absent for new environments, compare-and-set updates for
// the evaluator, and a local view kept current by a KV watch so retrieval never waits on the network.
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvEntry, KvWatchEntry } from '@nats-io/kv';
import { bucketKeys } from '../../../runtime/bucket-keys.js';
import type { Connection } from '../../../runtime/connection.js';
import { followKv, type Follow } from '../../../runtime/follow.js';
import { decode, encode } from '../../../runtime/messages.js';
import { BUCKETS } from '../../../runtime/subjects.js';
import { isWrongLastSequence } from '../../../weight-sync/index.js';
import { MemoryError } from '../errors.js';
import { MemoryEntryRecord, memoryKey, withEvaluation, type MemoryEntry, type MemoryStats } from './memory-entry.js';

/** What the designer reads: the entries known right now. */
export interface MemoryView {
  entries(): MemoryEntry[];
}

const MAX_CAS_ATTEMPTS = 20;

export class MemoryStore implements MemoryView {
  private readonly cache = new Map<string, MemoryEntry>();
  private watcher: Follow<KvWatchEntry> | null = null;
  private watching: Promise<void> | null = null;

  private constructor(readonly kv: KV, private readonly jsm: JetStreamManager, private readonly log: (line: string) => void) {}

  /** Opens the bucket (created by ensureTopology). */
  static async open(conn: Pick<Connection, 'kvm' | 'jsm'>, log: (line: string) => void = () => undefined): Promise<MemoryStore> {
    try {
      return new MemoryStore(await conn.kvm.open(BUCKETS.envMemory), conn.jsm, log);
    } catch (err) {
      throw new MemoryError(`cannot open KV bucket ${BUCKETS.envMemory} (was the topology created?): ${(err as Error).message}`, {}, err);
    }
  }

  private parse(e: KvEntry): MemoryEntry | null {
    if (e.operation !== 'PUT') return null;
    try {
      return decode(MemoryEntryRecord, e.value, { bucket: BUCKETS.envMemory, key: e.key });
    } catch (err) {
      this.log(`memory: skipping malformed entry ${e.key}: ${(err as Error).message}`);
      return null;
    }
  }

  /** Keeps the local view current; entries() then reflects every write within a round trip. */
  async watch(): Promise<void> {
    if (this.watcher) return;
    const watcher = (this.watcher = await followKv(this.kv));
    this.watching = (async () => {
      for await (const e of watcher) {
        const entry = this.parse(e);
        if (entry) this.cache.set(e.key, entry);
        else if (e.operation !== 'PUT') this.cache.delete(e.key);
      }
    })().catch((err: Error) => this.log(`memory: watch ended: ${err.message}`));
  }

  /** Reloads the whole view from the bucket (exact, unlike the watch which lags by a round trip). */
  async sync(): Promise<MemoryEntry[]> {
    const keys = await bucketKeys(this.jsm, BUCKETS.envMemory);
    const fresh = new Map<string, MemoryEntry>();
    for (const k of keys) {
      const e = await this.kv.get(k);
      const entry = e && this.parse(e);
      if (entry) fresh.set(k, entry);
    }
    this.cache.clear();
    for (const [k, v] of fresh) this.cache.set(k, v);
    return this.entries();
  }

  /** The entries in the local view, in key order (deterministic for retrieval). */
  entries(): MemoryEntry[] {
    return [...this.cache.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  }

  async get(envId: string): Promise<{ entry: MemoryEntry; revision: number } | null> {
    const e = await this.kv.get(memoryKey(envId));
    const entry = e && this.parse(e);
    return entry ? { entry, revision: e.revision } : null;
  }

  /** The designed environment in the local view with this code hash, if any (library entries are not counted). */
  byCodeHash(codeHash: string): MemoryEntry | undefined {
    for (const e of this.cache.values()) if (e.codeHash === codeHash && e.source === 'designer') return e;
    return undefined;
  }

  /**
   * Writes a new environment unless one with its envId exists (a retried job keeps the first) or, for a designed
   * one, the view already holds a designed environment with the same code hash (the memory is deduplicated by
   * code); returns whether it wrote.
   */
  async add(entry: MemoryEntry): Promise<boolean> {
    const key = memoryKey(entry.envId);
    // Designed environments only: the fixed-environment baseline plays library modules again on purpose.
    const same = entry.source === 'designer' ? this.byCodeHash(entry.codeHash) : undefined;
    if (same && same.envId !== entry.envId) return false;
    try {
      await this.kv.create(key, encode(MemoryEntryRecord, entry));
      this.cache.set(key, entry);
      return true;
    } catch (err) {
      if (isWrongLastSequence(err)) return false;
      throw new MemoryError(`cannot add memory entry ${entry.envId}: ${(err as Error).message}`, { envId: entry.envId }, err);
    }
  }

  /** Deletes an environment's entry (the evaluator's, for copies); absent is fine. */
  async remove(envId: string): Promise<void> {
    const key = memoryKey(envId);
    try {
      await this.kv.delete(key);
      this.cache.delete(key);
    } catch (err) {
      throw new MemoryError(`cannot remove memory entry ${envId}: ${(err as Error).message}`, { envId }, err);
    }
  }

  /**
   * Read-modify-write with compare-and-set on the KV revision, retried when another writer got in between.
   * `change` gets the current entry (null when absent) and returns the new one, or null to leave it.
   */
  async update(envId: string, change: (current: MemoryEntry | null) => MemoryEntry | null): Promise<MemoryEntry | null> {
    const key = memoryKey(envId);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const cur = await this.get(envId);
      const next = change(cur?.entry ?? null);
      if (next === null) return cur?.entry ?? null;
      if (next.envId !== envId) throw new MemoryError(`update of ${envId} returned an entry for ${next.envId}`, { envId });
      try {
        const data = encode(MemoryEntryRecord, next);
        if (cur) await this.kv.update(key, data, cur.revision);
        else await this.kv.create(key, data);
        this.cache.set(key, next);
        return next;
      } catch (err) {
        if (!isWrongLastSequence(err)) throw new MemoryError(`cannot update memory entry ${envId}: ${(err as Error).message}`, { envId }, err);
      }
    }
    throw new MemoryError(`memory entry ${envId}: ${MAX_CAS_ATTEMPTS} compare-and-set attempts lost to other writers`, { envId });
  }

  /**
   * The evaluator's write: folds stats into the entry. When the designer's entry is not there yet (the evaluator
   * may run first), `fallback` creates it, so an evaluation is never lost — unless another entry holds the same code
   * hash (the designer skipped a duplicate), when nothing is written.
   */
  async recordEvaluation(envId: string, stats: MemoryStats, fallback?: MemoryEntry): Promise<MemoryEntry | null> {
    let fb = fallback;
    if (fb && fb.source === 'designer' && (await this.get(envId)) === null) {
      // Absent: the designer's write has not landed, or it was skipped because the code is already in the memory
      // under another envId. Only the first may create it (the memory stays deduplicated by code hash); this path
      // is rare, so it pays for an exact reload.
      await this.sync();
      const same = this.byCodeHash(fb.codeHash);
      if (same && same.envId !== envId) fb = undefined;
    }
    return this.update(envId, (cur) => {
      const base = cur ?? fb ?? null;
      return base ? withEvaluation(base, stats) : null;
    });
  }

  async close(): Promise<void> {
    await this.watcher?.close();
    await this.watching;
    this.watcher = null;
  }
}
