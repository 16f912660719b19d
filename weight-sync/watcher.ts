// The samplers' side of weight sync: watch the policy KV record, download and check each newer version, and hand
// it over only when strictly newer than the last one applied. Versions that arrive during a download coalesce to
// the newest; a failed download is reported and never stops the watcher. Weights a publisher in this process hands
// over are applied once checked, before their record, which then confirms them (applyHandedOver).
import type { KvWatchEntry, KV } from '@nats-io/kv';
import type { ObjectStore } from '@nats-io/obj';
import { followKv, type Follow } from '../runtime/follow.js';
import { PolicyVersion } from '../runtime/message-types.js';
import { decode } from '../runtime/messages.js';
import type { Weights } from '../model/index.js';
import { validateWeightWatcherOptions, type ResolvedWatcherOptions, type WeightWatcherOptions } from './watcher-options.js';
import { configHash, decodeWeightPayload, maxPayloadBytes } from './payload.js';
import { LiveReceiver, sha256Once, type LiveStats } from './live.js';
import { EarlyCheck, type EarlyResult } from './early-check.js';
import { POLICY_KEY, checkRecordBytes, downloadRecord, openWeightStores, type PolicyRecord, type WeightSyncConnection } from './store.js';
import { WeightContentError, WeightIntegrityError, WeightSyncError, WeightTransportError, isWeightTransportError } from './errors.js';

/** waitForVersion() on a watcher that was stopped first. */
export class WatcherStoppedError extends WeightSyncError {
  constructor(waitingFor: number, applied: number) {
    super(`weight watcher stopped while waiting for version ${waitingFor} (applied: ${applied})`, { code: 'WEIGHT_WATCHER_STOPPED', data: { waitingFor, applied } });
  }
}

export class WeightWatcher {
  readonly options: ResolvedWatcherOptions;
  private readonly configHash: string | undefined;
  private readonly maxBytes: number;
  private applied: number;
  /** Newest record announced by KV; the apply loop always goes for this one. */
  private wanted: PolicyRecord | null = null;
  /** A wanted record that failed for good: not retried until a newer one arrives. */
  private failed: PolicyRecord | null = null;
  /** Checked weights handed over in this process, waiting to be applied before their record (applyHandedOver). */
  private handed: { weights: Weights; record: PolicyRecord } | null = null;
  /** The applied version when it came handed over and its record has not confirmed it yet. */
  private provisional: PolicyRecord | null = null;
  private stores: { kv: KV; os: ObjectStore } | null = null;
  private live: LiveReceiver | null = null;
  private early: EarlyCheck | null = null;
  private iter: Follow<KvWatchEntry> | null = null;
  private watching: Promise<void> | null = null;
  private applying: Promise<void> | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  private readonly waiters: Array<{ version: number; resolve: () => void; reject: (e: unknown) => void }> = [];

  /** Creates a watcher and starts it; resolves once the KV watch is established. */
  static async start(conn: WeightSyncConnection, options: WeightWatcherOptions): Promise<WeightWatcher> {
    const w = new WeightWatcher(conn, options);
    await w.start();
    return w;
  }

  constructor(private readonly conn: WeightSyncConnection, options: WeightWatcherOptions) {
    this.options = validateWeightWatcherOptions(options);
    this.configHash = this.options.modelConfig === null ? undefined : configHash(this.options.modelConfig);
    this.applied = this.options.fromVersion;
    this.maxBytes = maxPayloadBytes(this.options.shapes);
  }

  /** The last version handed to onWeights (fromVersion before the first). */
  get version(): number { return this.applied; }
  /** How many versions came by the live push and how many were downloaded (null without the push). */
  get liveStats(): LiveStats | null { return this.live === null ? null : { ...this.live.stats }; }
  /** Pushed or handed-over payloads checked as soon as they were complete (checkEarly), before any record named them. */
  get earlyChecks(): number { return this.early?.checked ?? 0; }
  /** The newest version KV announced so far. */
  get latestSeen(): number { return Math.max(this.applied, this.wanted?.version ?? -1); }

  async start(): Promise<void> {
    if (this.stores) return;
    const stores = await openWeightStores(this.conn);
    // Subscribed before the KV watch, so a push for the record the watch delivers first is not missed.
    if (this.options.live && this.conn.nc !== undefined) {
      this.live = new LiveReceiver(this.conn.nc, this.maxBytes);
      if (this.options.checkEarly) {
        const early = (this.early = new EarlyCheck({ shapes: this.options.shapes, dtype: this.options.dtype, ...(this.configHash === undefined ? {} : { configHash: this.configHash }) }));
        this.live.onComplete = (object, bytes) => early.schedule(object, bytes);
        // After the early check's turn (scheduled first), not inside the publisher, which goes on to upload.
        if (this.options.applyHandedOver) this.live.onHandedOver = (object, bytes) => void setImmediate(() => this.handOver(early, object, bytes));
      }
    }
    try {
      this.iter = await followKv(stores.kv, POLICY_KEY);
    } catch (err) {
      this.live?.close();
      this.early?.close();
      throw new WeightTransportError(`cannot watch ${POLICY_KEY}: ${(err as Error).message}`, {}, err);
    }
    this.stores = stores;
    this.watching = this.watch(this.iter);
  }

  /** Resolves once a version >= `version` has been applied; rejects with WatcherStoppedError after stop(). */
  waitForVersion(version: number): Promise<void> {
    if (this.applied >= version) return Promise.resolve();
    if (this.stopped) return Promise.reject(new WatcherStoppedError(version, this.applied));
    return new Promise((resolve, reject) => this.waiters.push({ version, resolve, reject }));
  }

  /** Stops watching; a download in flight is finished but not applied. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    void this.iter?.close();
    this.live?.close();
    this.early?.close();
    this.wake?.();
    await Promise.all([this.watching, this.applying]);
    for (const w of this.waiters.splice(0)) w.reject(new WatcherStoppedError(w.version, this.applied));
  }

  private async watch(iter: Follow<KvWatchEntry>): Promise<void> {
    // The KV watcher is an ordered consumer: it survives reconnects by itself and ends on stop() or a closed connection.
    try {
      for await (const e of iter) {
        if (e.operation !== 'PUT' || e.key !== POLICY_KEY) continue;
        let rec: PolicyRecord;
        try {
          rec = decode(PolicyVersion, e.value);
        } catch (err) {
          this.report(new WeightContentError(`KV record at revision ${e.revision} is not a PolicyVersion: ${(err as Error).message}`, {}, err));
          continue;
        }
        if (rec.version === this.provisional?.version) this.confirm(rec);
        if (rec.version <= this.latestSeen) continue; // never backwards, and no re-download of what we have
        this.wanted = rec;
        this.options.onSeen?.(rec);
        this.wake?.();
        this.kick();
      }
      // Ends without stop() only when the connection closed: say so, since no new version will arrive.
      if (!this.stopped) this.report(new WeightSyncError('KV watch ended (connection closed?): no newer weights will arrive', { code: 'WEIGHT_WATCH' }));
    } catch (err) {
      if (!this.stopped) this.report(new WeightSyncError(`KV watch failed: ${(err as Error).message}`, { code: 'WEIGHT_WATCH', cause: err }));
    }
  }

  private pending(): PolicyRecord | null {
    const rec = this.wanted;
    return !this.stopped && rec !== null && rec !== this.failed && rec.version > this.applied ? rec : null;
  }

  private kick(): void {
    this.applying ??= this.applyLoop().finally(() => {
      this.applying = null;
      if (this.pending() || this.handed) this.kick();
    });
  }

  /** Handed-over bytes whose checks passed become the next thing to apply, unless their version is already known. */
  private handOver(early: EarlyCheck, object: string, bytes: Uint8Array): void {
    if (this.stopped) return;
    const { sha256, payload } = early.peek(object, bytes);
    // Bytes that fail a check are left to the record's path, which reports them with the record's version.
    if (payload === null || payload.version <= this.latestSeen || payload.version <= (this.handed?.record.version ?? -1)) return;
    this.handed = {
      weights: payload.weights,
      record: { version: payload.version, object, step: payload.step, ts: Date.now(), sha256, bytes: bytes.length, configHash: payload.configHash },
    };
    this.kick();
  }

  /** The record of the provisionally applied version arrived: it must name the same bytes. */
  private confirm(rec: PolicyRecord): void {
    const p = this.provisional!;
    this.provisional = null;
    if (rec.sha256 === p.sha256 && rec.bytes === p.bytes) return;
    this.report(new WeightIntegrityError(
      `the weights handed over in this process (sha256 ${p.sha256?.slice(0, 12)}…, ${p.bytes} bytes) are not the ones the record names (sha256 ${rec.sha256?.slice(0, 12)}…, ${rec.bytes} bytes): kept until a newer version`,
      { version: rec.version, object: rec.object },
    ), rec);
  }

  private async applyLoop(): Promise<void> {
    for (;;) {
      const h = this.handed;
      this.handed = null;
      if (h !== null && !this.stopped && h.record.version > this.latestSeen) {
        try {
          await this.options.onWeights(h.weights, h.record.version, h.record);
          this.applied = h.record.version;
          this.provisional = h.record;
          this.live!.stats.used++;
          if (this.wanted?.version === h.record.version) this.confirm(this.wanted); // its record came in meanwhile
          this.settleWaiters();
        } catch (err) {
          this.report(err, h.record); // the record's path tries this version again
        }
        continue;
      }
      const rec = this.pending();
      if (rec === null) return;
      for (let attempt = 0; ; attempt++) {
        try {
          const weights = await this.fetch(rec);
          if (this.stopped) return;
          await this.options.onWeights(weights, rec.version, rec);
          this.applied = rec.version;
          this.provisional = null;
          this.settleWaiters();
          break;
        } catch (err) {
          this.report(err, rec);
          if (!isWeightTransportError(err) || attempt >= this.options.maxRetries) {
            this.failed = rec;
            break;
          }
          await this.pause(this.options.retryDelayMs);
          if (this.wanted !== rec || this.stopped) break; // a newer version supersedes the retry
        }
      }
    }
  }

  private async fetch(rec: PolicyRecord): Promise<Weights> {
    const where = { version: rec.version, object: rec.object };
    if (this.configHash !== undefined && rec.configHash !== undefined && rec.configHash !== this.configHash) {
      throw new WeightContentError(`record is for model config ${rec.configHash.slice(0, 12)}, this model is ${this.configHash.slice(0, 12)}`, where);
    }
    const pushed = await this.pushed(rec);
    const early = pushed?.early?.payload;
    if (early) {
      // Checked when the bytes came in; what needs the record is its sha256 and size (pushed()) and the version.
      if (early.version !== rec.version) throw new WeightIntegrityError(`payload says version ${early.version}, the KV record says ${rec.version}`, where);
      return early.weights;
    }
    const bytes = pushed?.bytes ?? await downloadRecord(this.stores!.os, rec, this.options.downloadTimeoutMs, this.maxBytes);
    return decodeWeightPayload(bytes, {
      shapes: this.options.shapes, dtype: this.options.dtype, version: rec.version, object: rec.object,
      ...(this.configHash === undefined ? {} : { configHash: this.configHash }),
    }).weights;
  }

  /**
   * The pushed bytes of the record (with what the early checks found), when they arrived whole and match its size and
   * sha256; else null (download).
   */
  private async pushed(rec: PolicyRecord): Promise<{ bytes: Uint8Array; early: EarlyResult | null } | null> {
    if (this.live === null) return null;
    const bytes = await this.live.take(rec.object, this.options.liveWaitMs);
    if (bytes === null || rec.sha256 === undefined || rec.bytes === undefined) {
      this.live.stats.missed++;
      return null;
    }
    const early = this.early?.take(rec.object, bytes) ?? null;
    try {
      checkRecordBytes(bytes, rec, 'pushed', early?.sha256 ?? sha256Once(bytes));
    } catch (err) {
      this.report(err, rec); // somebody pushed other bytes under this name: said, then downloaded
      this.live.stats.missed++;
      return null;
    }
    this.live.stats.used++;
    return { bytes, early };
  }

  /** A retry delay that a newer record or stop() cuts short. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  private settleWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!;
      if (w.version <= this.applied) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }

  private report(err: unknown, rec?: PolicyRecord): void {
    try {
      this.options.onError(err, rec);
    } catch {
      // A throwing error handler must not take the watcher down with it.
    }
  }
}
