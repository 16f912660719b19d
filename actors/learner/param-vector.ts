// The model's parameters (or their gradients) as one F32 vector, in sorted name order, and the weights' sha256: how
// the members of a learner group exchange gradients and compare weights with the same bits on every member, whichever
// thread their trainer runs on. Loaded by the trainer thread too, so it imports nothing but node:crypto.
import { createHash } from 'node:crypto';

/** The parameter names in the order of the vector. */
export const vectorOrder = (params: ReadonlyMap<string, unknown>): string[] => [...params.keys()].sort();

/** `grads` as one fresh vector, `names` in order. */
export function toVector(grads: ReadonlyMap<string, Float32Array>, names: readonly string[]): Float32Array {
  const out = new Float32Array(names.reduce((n, k) => n + grads.get(k)!.length, 0));
  let at = 0;
  for (const k of names) {
    out.set(grads.get(k)!, at);
    at += grads.get(k)!.length;
  }
  return out;
}

/** Views into `v`, one per parameter of `like` (sized like it), in the vector's order. */
export function fromVector(v: Float32Array, like: ReadonlyMap<string, Float32Array>): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  let at = 0;
  for (const k of vectorOrder(like)) {
    const n = like.get(k)!.length;
    out.set(k, v.subarray(at, at + n));
    at += n;
  }
  return out;
}

/** sha256 over the weights in sorted name order: equal for equal bits. */
export function weightsHash(weights: ReadonlyMap<string, Float32Array>): string {
  const h = createHash('sha256');
  for (const name of vectorOrder(weights)) {
    const w = weights.get(name)!;
    h.update(name).update(new Uint8Array(w.buffer, w.byteOffset, w.byteLength));
  }
  return h.digest('hex');
}
