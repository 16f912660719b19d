// Where published weights live: the policy KV record (key `version`) and the weights object store, with the
// small operations both the publisher and the watcher need (open, read the record, download with checks).
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { setSha256Backend, type ObjectStore } from '@nats-io/obj';
import type { Connection } from '../runtime/connection.js';
import { PolicyVersion, type PolicyVersionBody } from '../runtime/message-types.js';
import { decode } from '../runtime/messages.js';
import { BUCKETS, OBJECT_NAMES, OBJECT_STORES, POLICY_KEYS } from '../runtime/subjects.js';
import { sha256Hex } from './payload.js';
import { WeightContentError, WeightIntegrityError, WeightTransportError } from './errors.js';

/** The KV key in BUCKETS.policy that holds the current PolicyVersion (runtime/status.ts reads the same key). */
export const POLICY_KEY = POLICY_KEYS.version;
/** Object names are `policy/v<version>-<unique>`: two publishers racing for one version never overwrite each other. */
export const OBJECT_PREFIX = OBJECT_NAMES.weightsPrefix;

export type PolicyRecord = PolicyVersionBody;
/** The clients weight sync needs; a runtime Connection is one (with `nc`, the live push is used too). */
export type WeightSyncConnection = Pick<Connection, 'kvm' | 'objm'> & Partial<Pick<Connection, 'nc' | 'js' | 'jsm'>>;

export interface WeightStores {
  kv: KV;
  os: ObjectStore;
}

export async function openWeightStores(conn: WeightSyncConnection): Promise<WeightStores> {
  // The object store hashes every chunk on put and get; its default pure-JS sha256 spends ~360 ms on 13 MB here,
  // node:crypto ~15 ms. The setting is process-wide and only changes speed, not the digests.
  setSha256Backend('native');
  try {
    const [kv, os] = await Promise.all([conn.kvm.open(BUCKETS.policy), conn.objm.open(OBJECT_STORES.weights)]);
    return { kv, os };
  } catch (err) {
    throw new WeightTransportError(`cannot open KV bucket ${BUCKETS.policy} / object store ${OBJECT_STORES.weights} (was the topology created?): ${(err as Error).message}`, {}, err);
  }
}

/**
 * The current record and its KV revision. `record` is null when the key was deleted or holds something that is not
 * a PolicyVersion; `floor` is then the newest version still in the key's history, so a publisher cannot go below
 * it either (purging the key, which drops the history, is the deliberate way to start over).
 */
export interface CurrentRecord {
  revision: number;
  record: PolicyRecord | null;
  floor: number;
}

export async function readPolicyRecord(kv: KV): Promise<CurrentRecord | null> {
  try {
    const e = await kv.get(POLICY_KEY);
    if (e === null) return null;
    const record = e.operation === 'PUT' ? tryDecode(e.value) : null;
    return { revision: e.revision, record, floor: record?.version ?? (await historyFloor(kv)) };
  } catch (err) {
    throw new WeightTransportError(`cannot read ${BUCKETS.policy}/${POLICY_KEY}: ${(err as Error).message}`, {}, err);
  }
}

function tryDecode(value: Uint8Array): PolicyRecord | null {
  try {
    return value.length ? decode(PolicyVersion, value) : null;
  } catch {
    return null;
  }
}

async function historyFloor(kv: KV): Promise<number> {
  let floor = -1;
  for await (const e of await kv.history({ key: POLICY_KEY })) {
    const rec = e.operation === 'PUT' ? tryDecode(e.value) : null;
    if (rec) floor = Math.max(floor, rec.version);
  }
  return floor;
}

/** A compare-and-set that lost: someone else wrote the key after we read it. */
export function isWrongLastSequence(err: unknown): boolean {
  return err instanceof JetStreamApiError
    && (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);
}

/** The version encoded in an object name, or null for objects that are not published weights. */
export function objectVersion(name: string): number | null {
  const m = /^policy\/v(\d+)-/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * Downloads the object a record names and checks it against the record: the store's own chunk digest, then size
 * and sha256. A download that stalls (e.g. the object was pruned mid-read) ends after `timeoutMs`. An object (or a
 * record) bigger than `maxBytes` is refused before a byte is read, and a stream that runs past it is cut off.
 */
export async function downloadRecord(os: ObjectStore, rec: PolicyRecord, timeoutMs: number, maxBytes = Infinity): Promise<Uint8Array> {
  const where = { version: rec.version, object: rec.object };
  let r;
  try {
    r = await os.get(rec.object);
  } catch (err) {
    throw new WeightTransportError(`cannot read object info: ${(err as Error).message}`, where, err);
  }
  if (r === null) throw new WeightTransportError('object not found (pruned or never uploaded)', where);
  if (r.info.size > maxBytes || (rec.bytes ?? 0) > maxBytes) {
    throw new WeightContentError(`object is ${Math.max(r.info.size, rec.bytes ?? 0)} bytes, weights of this model take at most ${maxBytes}: not downloaded`, where);
  }
  if (rec.bytes !== undefined && r.info.size !== rec.bytes) throw new WeightIntegrityError(`stored size ${r.info.size}, record says ${rec.bytes}`, where);
  const reader = r.data.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WeightTransportError(`download stalled after ${timeoutMs} ms (${size} of ${r.info.size} bytes)`, where)), timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), stalled]);
      if (done) break;
      parts.push(value);
      size += value.length;
      if (size > maxBytes) throw new WeightContentError(`object sent more than the ${maxBytes} bytes weights of this model take: cut off`, where);
    }
  } catch (err) {
    void reader.cancel().catch(() => undefined);
    if (err instanceof WeightTransportError || err instanceof WeightContentError) throw err;
    const msg = (err as Error).message ?? String(err);
    if (/digests do not match|corrupt/i.test(msg)) throw new WeightIntegrityError(`object store digest mismatch (${msg.split('\n')[0]})`, where, err);
    throw new WeightTransportError(`download failed: ${msg}`, where, err);
  } finally {
    clearTimeout(timer);
  }
  const bytes = Buffer.concat(parts, size);
  // The client checked every byte against the object's digest (a mismatch fails the read above), so when that digest
  // is the record's sha256 the bytes are the record's without hashing them a second time.
  checkRecordBytes(bytes, rec, 'downloaded', digestHex(r.info.digest) ?? undefined);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The hex sha256 in an object store digest (`SHA-256=<base64>`), or null when it is not one. */
export function digestHex(digest: string | undefined): string | null {
  const m = /^SHA-256=([A-Za-z0-9+/_-]+=*)$/.exec(digest ?? '');
  const raw = m ? Buffer.from(m[1]!, 'base64') : null;
  return raw?.length === 32 ? raw.toString('hex') : null;
}

/**
 * Size and sha256 of bytes (downloaded or pushed) against the KV record; WeightIntegrityError when they differ.
 * `sha256`: the bytes' hash when it is already known (computed by whoever holds exactly these bytes).
 */
export function checkRecordBytes(bytes: Uint8Array, rec: PolicyRecord, how: 'downloaded' | 'pushed', sha256?: string): void {
  const where = { version: rec.version, object: rec.object };
  if (rec.bytes !== undefined && bytes.length !== rec.bytes) throw new WeightIntegrityError(`${how} ${bytes.length} bytes, record says ${rec.bytes}`, where);
  if (rec.sha256 !== undefined) {
    const got = sha256 ?? sha256Hex(bytes);
    if (got !== rec.sha256) throw new WeightIntegrityError(`${how} sha256 ${got.slice(0, 16)}… differs from the record's ${rec.sha256.slice(0, 16)}…`, where);
  }
}
