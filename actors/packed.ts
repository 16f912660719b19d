// Token ids, log-probs and versions travel as little-endian typed-array bytes inside msgpack:
// about 4 bytes a value instead of 5-9, and no per-element validation on receive.

export function packInts(values: ArrayLike<number>): Uint8Array {
  const a = Int32Array.from(values as ArrayLike<number>);
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export function unpackInts(bytes: Uint8Array): Int32Array {
  if (bytes.byteLength % 4 !== 0) throw new RangeError(`packed int32 array has ${bytes.byteLength} bytes, not a multiple of 4`);
  // Uint8Array's slice, not Buffer's (a decoded message's bytes may be a Buffer, whose slice is a view into a shared pool).
  return new Int32Array(Uint8Array.prototype.slice.call(bytes).buffer);
}

export function packFloats(values: ArrayLike<number>): Uint8Array {
  const a = Float32Array.from(values as ArrayLike<number>);
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export function unpackFloats(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % 4 !== 0) throw new RangeError(`packed float32 array has ${bytes.byteLength} bytes, not a multiple of 4`);
  return new Float32Array(Uint8Array.prototype.slice.call(bytes).buffer);
}
