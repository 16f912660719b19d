// The bytes that travel through the object store: safetensors with the policy version, step and model-config hash
// in its metadata; decoding checks every tensor's name, shape, dtype and values (finite) against the receiver's
// parameter table, before any of it is handed on.
import { createHash } from 'node:crypto';
import type { ShapeTable } from '../model/index.js';
import { DtypeMismatchError, MissingTensorError, ShapeMismatchError, UnexpectedTensorError, isCheckpointError, isNonFiniteTensorError } from '../model/index.js';
import { assertFinite, decodeSafetensors, encodeSafetensors, numel, toFloat32, toFloat64, type SafetensorsContents } from '../model/index.js';
import type { Weights } from '../model/index.js';
import { NonFiniteWeightsError, WeightContentError, WeightIntegrityError } from './errors.js';

/** Keys of the safetensors `__metadata__` block (values are strings, as the format requires). */
export const WEIGHT_METADATA = { version: 'spade.policy_version', step: 'spade.step', configHash: 'spade.config_hash' } as const;

export interface PayloadInfo {
  version: number;
  step: number;
  configHash: string;
}

export interface DecodeExpectations {
  shapes: ShapeTable;
  /** Array type handed to the sampler; F32 and F64 tensors convert to it. */
  dtype: 'float32' | 'float64';
  /** When given, the payload must carry this version and config hash (the KV record's values). */
  version?: number;
  configHash?: string;
  /** Object name, for error messages. */
  object?: string;
}

export interface DecodedPayload extends PayloadInfo {
  weights: Weights;
}

const entriesOf = (t: ShapeTable): Array<[string, readonly number[]]> =>
  t instanceof Map ? [...t] : Object.entries(t as Record<string, readonly number[]>);

/**
 * The largest payload the model's parameter table can produce: every tensor as F64 plus a generous header (each
 * name JSON-escaped at worst, dtype, shape and offsets, and the metadata). A watcher refuses a bigger object before
 * downloading it, so a hostile record cannot make a sampler buffer gigabytes.
 */
export function maxPayloadBytes(shapes: ShapeTable): number {
  let data = 0, header = 4096;
  for (const [name, shape] of entriesOf(shapes)) {
    data += numel(shape) * 8;
    header += name.length * 6 + 96 + shape.length * 21;
  }
  return 8 + header + data;
}

/** sha256 of the model config's canonical JSON (keys sorted at every depth), so key order does not matter. */
export function configHash(config: object): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Serialises weights; refuses a NaN or infinity (NonFiniteWeightsError) and, with `shapes`, a table that differs from
 * the model's, before anything is uploaded.
 */
export function encodeWeightPayload(weights: Weights, info: PayloadInfo, shapes?: ShapeTable): Uint8Array {
  const table = shapes === undefined ? undefined : new Map(entriesOf(shapes));
  const tensors: Array<[string, { shape: readonly number[]; data: Float32Array | Float64Array }]> = [];
  for (const [name, data] of weights) {
    const shape = table?.get(name) ?? [data.length];
    if (table !== undefined && !table.has(name)) throw content(new UnexpectedTensorError(name), {});
    if (numel(shape) !== data.length) throw content(new ShapeMismatchError(name, shape, [data.length]), {});
    try {
      assertFinite(data, name);
    } catch (err) {
      throw content(err, { version: info.version });
    }
    tensors.push([name, { shape, data }]);
  }
  if (table !== undefined) for (const name of table.keys()) if (!weights.has(name)) throw content(new MissingTensorError(name), {});
  return encodeSafetensors(tensors, {
    format: 'pt',
    [WEIGHT_METADATA.version]: String(info.version),
    [WEIGHT_METADATA.step]: String(info.step),
    [WEIGHT_METADATA.configHash]: info.configHash,
  });
}

/**
 * Parses and checks a payload; every failure is a WeightContentError or WeightIntegrityError naming what differs.
 * F32 tensors decoded as float32 are views of `bytes` (no second copy of the weights): do not write to it afterwards.
 */
export function decodeWeightPayload(bytes: Uint8Array, expect: DecodeExpectations): DecodedPayload {
  const where = { version: expect.version, object: expect.object };
  let file: SafetensorsContents;
  try {
    file = decodeSafetensors(bytes); // the wrapper names the object
  } catch (err) {
    throw content(err, where);
  }
  const info = readInfo(file.metadata, where);
  if (expect.version !== undefined && info.version !== expect.version) {
    throw new WeightIntegrityError(`payload says version ${info.version}, the KV record says ${expect.version}`, { version: expect.version, object: expect.object ?? '' });
  }
  if (expect.configHash !== undefined && info.configHash !== expect.configHash) {
    throw new WeightContentError(`weights are for model config ${info.configHash.slice(0, 12)}, this model is ${expect.configHash.slice(0, 12)}`, where);
  }
  const weights: Weights = new Map();
  try {
    for (const [name, shape] of entriesOf(expect.shapes)) {
      const t = file.tensors.get(name);
      if (t === undefined) throw new MissingTensorError(name);
      if (t.dtype !== 'F32' && t.dtype !== 'F64') throw new DtypeMismatchError(name, ['F32', 'F64'], t.dtype);
      if (shape.length !== t.shape.length || shape.some((d, i) => d !== t.shape[i])) throw new ShapeMismatchError(name, shape, t.shape);
      // F32 into float32: a view of the payload, not a copy (the weights keep `bytes` alive; nobody writes to it).
      const values = expect.dtype === 'float32' && t.dtype === 'F32' && t.bytes.byteOffset % 4 === 0
        ? new Float32Array(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength / 4)
        : expect.dtype === 'float64' ? toFloat64(t, name) : toFloat32(t, name);
      assertFinite(values, name); // after conversion: an F64 beyond the F32 range arrives as an infinity
      weights.set(name, values);
    }
    const known = new Set(entriesOf(expect.shapes).map(([n]) => n));
    for (const name of [...file.tensors.keys()].sort()) if (!known.has(name)) throw new UnexpectedTensorError(name);
  } catch (err) {
    throw content(err, where);
  }
  return { ...info, weights };
}

function readInfo(meta: Record<string, string>, where: { version?: number; object?: string }): PayloadInfo {
  const int = (key: string): number => {
    const v = meta[key];
    if (v === undefined || !/^\d+$/.test(v)) throw new WeightContentError(`metadata ${key} must be a non-negative integer (got ${JSON.stringify(v)})`, where);
    return Number(v);
  };
  const hash = meta[WEIGHT_METADATA.configHash];
  if (typeof hash !== 'string' || hash === '') throw new WeightContentError(`metadata ${WEIGHT_METADATA.configHash} is missing`, where);
  return { version: int(WEIGHT_METADATA.version), step: int(WEIGHT_METADATA.step), configHash: hash };
}

/** Wraps a checkpoint error (which names the tensor) as the weight-sync error the caller handles. */
function content(err: unknown, where: { version?: number; object?: string }): WeightContentError {
  if (err instanceof WeightContentError) return err;
  if (isNonFiniteTensorError(err)) {
    return new NonFiniteWeightsError(err.message, { ...where, tensor: err.tensor, index: err.index, value: err.value }, err);
  }
  const tensor = isCheckpointError(err) && typeof err.data.tensor === 'string' ? err.data.tensor : undefined;
  const detail = err instanceof Error ? err.message : String(err);
  return new WeightContentError(detail, { ...where, ...(tensor === undefined ? {} : { tensor }) }, err);
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
