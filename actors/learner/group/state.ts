// What a member joining the learner group starts from: the published weights (the policy record and its object)
// plus the optimizer moments and the round count that go with that version, which the publishing member uploads
// beside them as `group/opt-v<version>` (safetensors: m.<name>, v.<name>, metadata with the version, round and
// step). Both are checked as untrusted input: the weights by weight sync's checks, the moments by name, shape and
// finiteness.
import type { AdamWState, ShapeTable } from '../../../model/index.js';
import { assertFinite, decodeSafetensors, encodeSafetensors, numel, toFloat32 } from '../../../model/index.js';
import type { Connection } from '../../../runtime/connection.js';
import { NATS_SUBJECTS, OBJECT_NAMES, OBJECT_STORES, objectMetaToken } from '../../../runtime/subjects.js';
import { configHash, decodeWeightPayload, downloadRecord, maxPayloadBytes, openWeightStores, readPolicyRecord } from '../../../weight-sync/index.js';
import { LearnerStateError } from '../errors.js';

export interface GroupState {
  version: number;
  /** Group rounds (updates) in these weights. */
  round: number;
  weights: Map<string, Float32Array>;
  optimizer: AdamWState;
}

const META = { version: 'spade.policy_version', round: 'spade.group_round', step: 'spade.step' } as const;
const objectName = (version: number): string => `${OBJECT_NAMES.groupStatePrefix}${version}`;

/**
 * Uploads the optimizer moments and round of `version` and deletes those older than the previous version's, with
 * their meta entries: a deleted object otherwise leaves its meta behind (one per version, for good).
 */
export async function publishGroupState(conn: Connection, version: number, round: number, optimizer: AdamWState): Promise<void> {
  const { os } = await openWeightStores(conn);
  const tensors: Array<[string, { shape: number[]; data: Float32Array }]> = [];
  for (const [name, m] of optimizer.m) {
    tensors.push([`m.${name}`, { shape: [m.length], data: m }], [`v.${name}`, { shape: [m.length], data: optimizer.v.get(name)! }]);
  }
  const bytes = encodeSafetensors(tensors, { [META.version]: String(version), [META.round]: String(round), [META.step]: String(optimizer.step) });
  await os.putBlob({ name: objectName(version), options: { max_chunk_size: 1024 * 1024 } }, bytes);
  for (const o of await os.list()) {
    if (!o.name.startsWith(OBJECT_NAMES.groupStatePrefix)) continue;
    const v = Number(o.name.slice(OBJECT_NAMES.groupStatePrefix.length));
    if (!Number.isInteger(v) || v >= version - 1) continue;
    await os.delete(o.name).catch(() => undefined); // another member's publish may have deleted it first
    // Housekeeping: a failure costs a few hundred bytes, not the version (a refusal is reported on the connection).
    await conn.jsm.streams.purge(NATS_SUBJECTS.objectStream(OBJECT_STORES.weights), { filter: NATS_SUBJECTS.objectMeta(OBJECT_STORES.weights, objectMetaToken(o.name)) }).catch(() => undefined);
  }
}

/** The group's latest state, or null when nothing was published yet or the version has no optimizer state. */
export async function loadGroupState(conn: Connection, config: object, shapes: ShapeTable): Promise<GroupState | null> {
  const { kv, os } = await openWeightStores(conn);
  const rec = (await readPolicyRecord(kv))?.record ?? null;
  if (rec === null) return null;
  const name = objectName(rec.version);
  const blob = await os.getBlob(name).catch(() => null);
  if (blob === null) return null;
  const hash = configHash(config);
  const weights = decodeWeightPayload(await downloadRecord(os, rec, 60_000, maxPayloadBytes(shapes)), {
    shapes, dtype: 'float32', version: rec.version, configHash: hash, object: rec.object,
  }).weights as Map<string, Float32Array>;
  let file;
  try {
    file = decodeSafetensors(blob, name);
  } catch (err) {
    throw new LearnerStateError(`group state ${name}: ${(err as Error).message}`, { object: name }, err);
  }
  const int = (k: string): number => {
    const v = file.metadata[k];
    if (v === undefined || !/^\d+$/.test(v)) throw new LearnerStateError(`group state ${name}: metadata ${k} must be an integer >= 0 (got ${JSON.stringify(v)})`, { object: name, field: k });
    return Number(v);
  };
  if (int(META.version) !== rec.version) throw new LearnerStateError(`group state ${name}: says version ${int(META.version)}, the policy record ${rec.version}`, { object: name });
  const optimizer: AdamWState = { step: int(META.step), m: new Map(), v: new Map() };
  if (file.tensors.size === 0) return { version: rec.version, round: int(META.round), weights, optimizer }; // no step taken yet
  for (const [pname, shape] of shapes instanceof Map ? shapes : Object.entries(shapes as Record<string, number[]>)) {
    for (const which of ['m', 'v'] as const) {
      const t = file.tensors.get(`${which}.${pname}`);
      if (t === undefined || t.dtype !== 'F32' || numel(t.shape) !== numel(shape)) {
        throw new LearnerStateError(`group state ${name}: ${which}.${pname} is ${t === undefined ? 'missing' : `${t.dtype} [${t.shape}]`}, the model needs F32 of ${numel(shape)} values`, { object: name, tensor: `${which}.${pname}` });
      }
      const values = toFloat32(t, `${which}.${pname}`, name);
      assertFinite(values, `${which}.${pname}`, name);
      optimizer[which].set(pname, values);
    }
  }
  return { version: rec.version, round: int(META.round), weights, optimizer };
}
