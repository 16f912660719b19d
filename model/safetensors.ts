// The safetensors format: an 8-byte little-endian header length, a JSON header naming each tensor's
// dtype, shape and byte range, then the tensors back to back. Writes F32/F64; reads F32/F64/F16/BF16.
import { CorruptFileError, DtypeMismatchError, NonFiniteTensorError, OversizeHeaderError, ShapeMismatchError, TruncatedFileError } from './errors.js';

/** Bytes per element of every dtype the header may name (only the float ones convert to arrays). */
export const DTYPE_SIZES: Readonly<Record<string, number>> = {
  F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U64: 8, U32: 4, U16: 2, U8: 1, BOOL: 1,
  F8_E4M3: 1, F8_E5M2: 1,
};
export type FloatDtype = 'F32' | 'F64' | 'F16' | 'BF16';
export const FLOAT_DTYPES: readonly FloatDtype[] = ['F32', 'F64', 'F16', 'BF16'];

/**
 * Same limit as the reference implementation (100 MB): a bigger header is a corrupt or hostile length field, refused
 * before the JSON is parsed. Real headers are about 100 bytes per tensor.
 */
export const MAX_SAFETENSORS_HEADER_BYTES = 100_000_000;

export interface TensorToWrite {
  shape: readonly number[];
  /** Float32Array is written as F32, Float64Array as F64. */
  data: Float32Array | Float64Array;
}

export interface StoredTensor {
  dtype: string;
  shape: number[];
  /** The tensor's raw little-endian bytes, a view into the file's buffer. */
  bytes: Uint8Array;
}

export interface SafetensorsContents {
  metadata: Record<string, string>;
  tensors: Map<string, StoredTensor>;
}

export const numel = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Serialises tensors in name order (so equal inputs give equal bytes); the header is padded to 8 bytes. */
export function encodeSafetensors(tensors: Iterable<[string, TensorToWrite]>, metadata: Record<string, string> = {}): Uint8Array {
  const entries = [...tensors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const header: Record<string, unknown> = {};
  if (Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  let offset = 0;
  for (const [name, t] of entries) {
    if (numel(t.shape) !== t.data.length) throw new ShapeMismatchError(name, t.shape, [t.data.length]);
    const dtype = t.data instanceof Float64Array ? 'F64' : 'F32';
    header[name] = { dtype, shape: [...t.shape], data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  let json = JSON.stringify(header);
  const headerBytes = Buffer.byteLength(json);
  json += ' '.repeat((8 - (headerBytes % 8)) % 8);
  const n = Buffer.byteLength(json);
  const out = new Uint8Array(8 + n + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(n), true);
  out.set(Buffer.from(json), 8);
  let at = 8 + n;
  for (const [, t] of entries) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), at);
    at += t.data.byteLength;
  }
  return out;
}

/** Parses and checks a whole file: header length, JSON, dtypes, shapes vs byte ranges, no holes or overlaps. */
export function decodeSafetensors(bytes: Uint8Array, file?: string): SafetensorsContents {
  if (bytes.length < 8) throw new TruncatedFileError(`${bytes.length} bytes, shorter than the 8-byte header length`, file);
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(MAX_SAFETENSORS_HEADER_BYTES)) throw new OversizeHeaderError(n, MAX_SAFETENSORS_HEADER_BYTES, file);
  const headerEnd = 8 + Number(n);
  if (headerEnd > bytes.length) throw new TruncatedFileError(`header needs ${headerEnd} bytes, file has ${bytes.length}`, file);
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 8, Number(n)).toString('utf8'));
  } catch (cause) {
    throw new CorruptFileError(`header is not JSON (${(cause as Error).message})`, file, cause);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw new CorruptFileError('header is not a JSON object', file);
  const metadata: Record<string, string> = {};
  const ranges: Array<[number, number, string]> = [];
  const tensors = new Map<string, StoredTensor>();
  const dataLength = bytes.length - headerEnd;
  for (const [name, raw] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new CorruptFileError('__metadata__ is not an object', file);
      for (const [k, v] of Object.entries(raw)) {
        if (typeof v !== 'string') throw new CorruptFileError(`__metadata__.${k} is not a string`, file);
        metadata[k] = v;
      }
      continue;
    }
    const e = raw as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const size = typeof e?.dtype === 'string' ? DTYPE_SIZES[e.dtype] : undefined;
    if (size === undefined) throw new CorruptFileError(`tensor "${name}" has unknown dtype ${JSON.stringify(e?.dtype)}`, file);
    const shape = e.shape;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      throw new CorruptFileError(`tensor "${name}" has invalid shape ${JSON.stringify(shape)}`, file);
    }
    const off = e.data_offsets;
    if (!Array.isArray(off) || off.length !== 2 || !off.every((d) => Number.isSafeInteger(d) && d >= 0) || off[1] < off[0]) {
      throw new CorruptFileError(`tensor "${name}" has invalid data_offsets ${JSON.stringify(off)}`, file);
    }
    const [begin, end] = off as [number, number];
    if (end - begin !== numel(shape) * size) {
      throw new CorruptFileError(`tensor "${name}": ${end - begin} bytes for shape [${shape.join(', ')}] of ${e.dtype}`, file);
    }
    if (end > dataLength) {
      throw new TruncatedFileError(`tensor "${name}" ends at data byte ${end}, file holds ${dataLength} data bytes`, file);
    }
    ranges.push([begin, end, name]);
    tensors.set(name, { dtype: e.dtype as string, shape, bytes: bytes.subarray(headerEnd + begin, headerEnd + end) });
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let covered = 0;
  for (const [begin, end, name] of ranges) {
    if (begin !== covered) throw new CorruptFileError(`tensor "${name}" starts at ${begin}, expected ${covered} (hole or overlap)`, file);
    covered = end;
  }
  if (covered !== dataLength) throw new CorruptFileError(`${dataLength - covered} bytes after the last tensor`, file);
  return { metadata, tensors };
}

/** Throws NonFiniteTensorError naming the first NaN or infinity (weights, moments and payloads must be finite). */
export function assertFinite(values: Float32Array | Float64Array, name: string, file?: string): void {
  for (let i = 0; i < values.length; i++) {
    // x - x is 0 for every finite x and NaN for NaN and ±Infinity: one branch per element.
    const x = values[i]!;
    if (x - x !== 0) throw new NonFiniteTensorError(name, i, x, file);
  }
}

/** A fresh Float32Array of a float tensor's values (F64, F16, BF16 converted). */
export function toFloat32(t: StoredTensor, name: string, file?: string): Float32Array {
  const count = numel(t.shape);
  switch (t.dtype) {
    case 'F32': {
      const out = new Float32Array(count);
      new Uint8Array(out.buffer).set(t.bytes); // copies, so a misaligned view is fine
      return out;
    }
    case 'F64':
      return Float32Array.from(toFloat64(t, name, file));
    case 'F16':
    case 'BF16': {
      const halves = new Uint16Array(count);
      new Uint8Array(halves.buffer).set(t.bytes);
      const out = new Float32Array(count);
      if (t.dtype === 'BF16') {
        const bits = new Uint32Array(out.buffer);
        for (let i = 0; i < count; i++) bits[i] = halves[i]! << 16;
      } else {
        for (let i = 0; i < count; i++) out[i] = halfToFloat(halves[i]!);
      }
      return out;
    }
    default:
      throw new DtypeMismatchError(name, FLOAT_DTYPES, t.dtype, file);
  }
}

/** A fresh Float64Array of an F64 or F32 tensor's values. */
export function toFloat64(t: StoredTensor, name: string, file?: string): Float64Array {
  if (t.dtype === 'F64') {
    const out = new Float64Array(numel(t.shape));
    new Uint8Array(out.buffer).set(t.bytes);
    return out;
  }
  if (t.dtype === 'F32') return Float64Array.from(toFloat32(t, name, file));
  throw new DtypeMismatchError(name, ['F64', 'F32'], t.dtype, file);
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24; // zero and subnormals
  if (exp === 0x1f) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}
