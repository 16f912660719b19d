// The learner's side of weight sync: upload a version's weights to the object store, then move the KV record to it
// with a compare-and-set on the KV revision, so racing publishers cannot move the version backwards.
import { randomBytes } from 'node:crypto';
import type { KV } from '@nats-io/kv';
import type { ObjectStore } from '@nats-io/obj';
import { PolicyVersion } from '../runtime/message-types.js';
import { encode } from '../runtime/messages.js';
import type { ShapeTable } from '../model/index.js';
import { ModelOptionError } from '../model/index.js';
import type { Weights } from '../model/index.js';
import { configHash, encodeWeightPayload, sha256Hex } from './payload.js';
import {
  OBJECT_PREFIX, POLICY_KEY, digestHex, isWrongLastSequence, objectVersion, openWeightStores, readPolicyRecord,
  type CurrentRecord, type PolicyRecord, type WeightSyncConnection,
} from './store.js';
import { StaleVersionError, WeightTransportError } from './errors.js';
import { commitHandOff, handOffLocal, pushLive, uncommittedHandOff } from './live.js';
import { putPipelined } from './upload.js';
import { OBJECT_STORES } from '../runtime/subjects.js';

export interface WeightPublisherOptions {
  /** The model config the weights belong to (pass the resolved one, e.g. validateDecoderConfig(c)); watchers compare its hash. */
  modelConfig: object;
  /** The parameter table (e.g. parameterShapes(config)): tensors are stored with these shapes, and weights whose
   *  names or sizes differ are refused before uploading. */
  shapes: ShapeTable;
  /** Published versions kept in the object store (older ones are deleted); >= 2 so a watcher mid-download keeps its object. */
  keep?: number;
  /** Object-store chunk size (capped by the server's max_payload); bigger chunks mean fewer messages. */
  chunkBytes?: number;
  /**
   * Chunks of the upload in flight at once (weight-sync/upload.ts), when the connection has `js` and `jsm`; 1 (or a
   * connection without them) uploads with @nats-io/obj's put, one round trip per chunk.
   */
  uploadWindow?: number;
  /** Per-request timeout of uploads and KV writes. */
  timeoutMs?: number;
  /**
   * Also push the bytes over core NATS while uploading (weight-sync/live.ts), when the connection has `nc` and the
   * payload is at most `liveMaxBytes`: watchers then skip the download. Off, or above the cap, watchers download.
   */
  live?: boolean;
  liveMaxBytes?: number;
  /** With `live`, hand the bytes straight to the watchers of this process too (learner and samplers on one host). */
  liveLocal?: boolean;
  /** Called when pruning old versions fails (the publish itself succeeded). */
  onError?: (err: unknown) => void;
}

// 64 MiB: the server's default per-connection buffer (max_pending); a bigger push would cut off slow watchers.
export const DEFAULT_WEIGHT_PUBLISHER_OPTIONS = { keep: 3, chunkBytes: 1024 * 1024, uploadWindow: 8, timeoutMs: 30_000, live: true, liveMaxBytes: 64 * 1024 * 1024, liveLocal: true } as const;

type ResolvedPublisherOptions = Required<Omit<WeightPublisherOptions, 'onError'>> & Pick<WeightPublisherOptions, 'onError'>;

export function validateWeightPublisherOptions(o: WeightPublisherOptions): ResolvedPublisherOptions {
  const r = { ...DEFAULT_WEIGHT_PUBLISHER_OPTIONS, ...o };
  if (r.modelConfig === null || typeof r.modelConfig !== 'object' || Array.isArray(r.modelConfig)) throw new ModelOptionError('modelConfig', 'an object', r.modelConfig);
  if (r.shapes === null || typeof r.shapes !== 'object') throw new ModelOptionError('shapes', 'a parameter table (Map or record of name -> shape)', r.shapes);
  if (!Number.isInteger(r.keep) || r.keep < 2) throw new ModelOptionError('keep', 'an integer >= 2', r.keep);
  if (!Number.isInteger(r.chunkBytes) || r.chunkBytes < 1024) throw new ModelOptionError('chunkBytes', 'an integer >= 1024', r.chunkBytes);
  if (!Number.isInteger(r.uploadWindow) || r.uploadWindow < 1) throw new ModelOptionError('uploadWindow', 'an integer >= 1', r.uploadWindow);
  if (!Number.isInteger(r.timeoutMs) || r.timeoutMs < 1) throw new ModelOptionError('timeoutMs', 'a positive integer (ms)', r.timeoutMs);
  for (const f of ['live', 'liveLocal'] as const) if (typeof r[f] !== 'boolean') throw new ModelOptionError(f, 'true or false', r[f]);
  if (!Number.isInteger(r.liveMaxBytes) || r.liveMaxBytes < 0) throw new ModelOptionError('liveMaxBytes', 'an integer >= 0 (bytes)', r.liveMaxBytes);
  if (r.onError !== undefined && typeof r.onError !== 'function') throw new ModelOptionError('onError', 'a function', r.onError);
  return r;
}

export interface PublishInfo {
  /** Must be greater than the version in KV. */
  version: number;
  /** Optimizer updates behind these weights. */
  step: number;
}

export interface PublishResult {
  record: PolicyRecord;
  /** KV revision of the new record. */
  revision: number;
  /** Objects deleted because they fell out of the last `keep` versions. */
  pruned: string[];
  /** Where the publish spent its time (ms): encoding and checking, the upload (the push included), the KV record. */
  timings: { encodeMs: number; uploadMs: number; recordMs: number };
}

export class WeightPublisher {
  readonly options: ResolvedPublisherOptions;
  readonly configHash: string;
  private stores: Promise<{ kv: KV; os: ObjectStore }> | null = null;
  /** The record this publisher wrote last and its revision: the next publish starts from it instead of reading KV. */
  private last: CurrentRecord | null = null;
  /** The version this publisher last handed to watchers in this process (-1: none). */
  private handedOver = -1;

  constructor(private readonly conn: WeightSyncConnection, options: WeightPublisherOptions) {
    this.options = validateWeightPublisherOptions(options);
    this.configHash = configHash(this.options.modelConfig);
  }

  /** The record in KV now, or null before the first publish (or when the key holds no valid record). */
  async current(): Promise<PolicyRecord | null> {
    const { kv } = await this.open();
    return (await readPolicyRecord(kv))?.record ?? null;
  }

  /**
   * The version the next publish must exceed (-1 before the first); a restarted learner continues above it. It
   * counts a version handed over in this process whose record was never written (see live.ts).
   */
  async currentVersion(): Promise<number> {
    const { kv } = await this.open();
    return Math.max((await readPolicyRecord(kv))?.floor ?? -1, uncommittedHandOff());
  }

  /**
   * Uploads, then compare-and-sets the KV record. Throws StaleVersionError when the version is not newer than the
   * published one, before uploading when that is already known, else after losing the race (its object is removed).
   */
  async publish(weights: Weights, info: PublishInfo): Promise<PublishResult> {
    const { version, step } = info;
    if (!Number.isInteger(version) || version < 0) throw new ModelOptionError('version', 'an integer >= 0', version);
    if (!Number.isInteger(step) || step < 0) throw new ModelOptionError('step', 'an integer >= 0', step);
    const { kv, os } = await this.open();
    // After its own publish this publisher knows the record (a write by anyone else since fails the compare-and-set
    // below, which then re-reads): one KV round trip less on the way to the samplers.
    const current = this.last ?? await readPolicyRecord(kv);
    if (current && version <= current.floor) throw new StaleVersionError(current.floor, version);
    // Watchers here may already run a version handed over in this process whose upload failed (live.ts): only the
    // publisher that handed it over may publish it again (its retry, with the same weights).
    const taken = uncommittedHandOff();
    if (version <= taken && version !== this.handedOver) throw new StaleVersionError(taken, version);

    const t0 = performance.now();
    const bytes = encodeWeightPayload(weights, { version, step, configHash: this.configHash }, this.options.shapes);
    const t1 = performance.now();
    const object = `${OBJECT_PREFIX}${version}-${randomBytes(6).toString('hex')}`;
    // The push goes out first on the same connection, so watchers hold the bytes by the time the record names them.
    if (this.options.live && bytes.length <= this.options.liveMaxBytes) {
      if (this.options.liveLocal && handOffLocal(object, bytes, version) > 0) {
        this.handedOver = version;
        // One turn of the event loop first: this process's watchers check and apply the bytes (weight-sync/watcher.ts
        // applyHandedOver) before the push and the upload take the thread. It costs other hosts that turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (this.conn.nc !== undefined) pushLive(this.conn.nc, object, bytes, this.options.chunkBytes);
    }
    let digest: string | undefined;
    try {
      digest = (await this.upload(os, object, bytes)).digest;
    } catch (err) {
      throw new WeightTransportError(`upload failed: ${(err as Error).message}`, { version, object }, err);
    }
    const t2 = performance.now();
    // The object store hashed every byte on the way in (its digest is the sha256 of the whole object): no second pass.
    const record: PolicyRecord = { version, object, step, ts: Date.now(), sha256: digestHex(digest) ?? sha256Hex(bytes), bytes: bytes.length, configHash: this.configHash };
    let revision: number;
    try {
      revision = await this.compareAndSet(kv, record, current);
    } catch (err) {
      this.last = null;
      await os.delete(object).catch(() => undefined); // never referenced by KV: nobody can be reading it
      throw err;
    }
    this.last = { revision, record, floor: version };
    commitHandOff(version);
    const timings = { encodeMs: t1 - t0, uploadMs: t2 - t1, recordMs: performance.now() - t2 };
    const pruned = await this.prune(os, version).catch((err: unknown) => {
      this.options.onError?.(new WeightTransportError(`pruning old versions failed: ${(err as Error).message}`, { version }, err));
      return [] as string[];
    });
    return { record, revision, pruned, timings };
  }

  private upload(os: ObjectStore, object: string, bytes: Uint8Array): Promise<{ digest: string }> {
    const { js, jsm, nc } = this.conn;
    const { chunkBytes, uploadWindow, timeoutMs } = this.options;
    if (uploadWindow === 1 || js === undefined || jsm === undefined) return os.putBlob({ name: object, options: { max_chunk_size: chunkBytes } }, bytes, { timeout: timeoutMs });
    const maxPayload = nc?.info?.max_payload ?? 1024 * 1024;
    return putPipelined(js, jsm, OBJECT_STORES.weights, object, bytes, { chunkBytes: Math.min(chunkBytes, maxPayload), window: uploadWindow, timeoutMs });
  }

  /** Writes the record only over the revision it read; on a lost race re-reads and retries while still newer. */
  private async compareAndSet(kv: KV, record: PolicyRecord, current: CurrentRecord | null): Promise<number> {
    const data = encode(PolicyVersion, record);
    for (;;) {
      try {
        return current === null ? await kv.create(POLICY_KEY, data) : await kv.update(POLICY_KEY, data, current.revision, this.options.timeoutMs);
      } catch (err) {
        if (!isWrongLastSequence(err)) throw new WeightTransportError(`cannot write the KV record: ${(err as Error).message}`, { version: record.version, object: record.object }, err);
      }
      current = await readPolicyRecord(kv);
      if (current && record.version <= current.floor) throw new StaleVersionError(current.floor, record.version);
    }
  }

  /**
   * Deletes objects older than the `keep` newest versions at or below the one just published. Newer objects
   * (another publisher's upload in flight) are never touched.
   */
  private async prune(os: ObjectStore, published: number): Promise<string[]> {
    const objects = (await os.list()).flatMap((o) => {
      const v = objectVersion(o.name);
      return v === null || v > published ? [] : [{ name: o.name, version: v }];
    });
    const versions = [...new Set(objects.map((o) => o.version))].sort((a, b) => b - a);
    if (versions.length <= this.options.keep) return [];
    const oldestKept = versions[this.options.keep - 1]!;
    const doomed = objects.filter((o) => o.version < oldestKept).map((o) => o.name);
    for (const name of doomed) await os.delete(name);
    return doomed;
  }

  private open(): Promise<{ kv: KV; os: ObjectStore }> {
    this.stores ??= openWeightStores(this.conn).catch((err: unknown) => {
      this.stores = null; // let a later call retry once the topology exists
      throw err;
    });
    return this.stores;
  }
}
