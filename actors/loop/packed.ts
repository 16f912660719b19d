// Token ids, log-probs and versions travel as little-endian typed-array bytes inside msgpack:
// about 4 bytes a value instead of 5-9, and no per-element validation on receive.

const bytesOf = (a: Int32Array | Float32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A copy of the bytes in a buffer of their own, checked to hold whole 4-byte values. */
function ownBuffer(bytes: Uint8Array, kind: 'int32' | 'float32'): ArrayBuffer {
  if (bytes.byteLength % 4 !== 0) throw new RangeError(`packed ${kind} array has ${bytes.byteLength} bytes, not a multiple of 4`);
  // Uint8Array's slice, not Buffer's (a decoded message's bytes may be a Buffer, whose slice is a view into a shared pool).
  return (Uint8Array.prototype.slice.call(bytes) as Uint8Array).buffer as ArrayBuffer;
}

export const packInts = (values: ArrayLike<number>): Uint8Array => bytesOf(Int32Array.from(values));
export const unpackInts = (bytes: Uint8Array): Int32Array => new Int32Array(ownBuffer(bytes, 'int32'));
export const packFloats = (values: ArrayLike<number>): Uint8Array => bytesOf(Float32Array.from(values));
export const unpackFloats = (bytes: Uint8Array): Float32Array => new Float32Array(ownBuffer(bytes, 'float32'));
