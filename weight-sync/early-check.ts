// Checks pushed or handed-over weights as soon as their bytes are complete, while the publisher is still uploading,
// so that when the KV record names them only the comparison with the record is left between the record and the
// sampler. The checks are a download's: sha256 (and size) against the record, then every payload check. Only their
// order changes: the payload's own checks (safetensors, config hash, names, shapes, dtypes, finite values) run before
// the record is known, and what needs the record (its sha256, size and version) is compared when it arrives.
import { decodeWeightPayload, type DecodeExpectations, type DecodedPayload } from './payload.js';
import { sha256Once } from './live.js';

/** What the early checks found for one object's bytes. */
export interface EarlyResult {
  sha256: string;
  /** The decoded, checked payload; null when a payload check failed (the caller runs the checks again with the
   *  record's version, so the error it reports names the version). */
  payload: DecodedPayload | null;
}

export type EarlyExpectations = Omit<DecodeExpectations, 'version' | 'object'>;

/**
 * Payloads decoded per array and expectations, once in this process: watchers of one host handed the same bytes
 * (a learner's samplers, `--role all`) decode and finite-check them once between them. The decoded arrays are views
 * of the bytes, which nobody writes to (samplers only read weights), so sharing them copies nothing.
 */
const decoded = new WeakMap<Uint8Array, Map<string, DecodedPayload | null>>();

export class EarlyCheck {
  private readonly results = new Map<string, { bytes: Uint8Array; result: EarlyResult }>();
  private closed = false;
  /** Bytes checked early (for the benchmark and the docs' figures). */
  checked = 0;

  /** What the expectations are, as a key into `decoded`. */
  private readonly expectKey: string;

  constructor(private readonly expect: EarlyExpectations, private readonly keep = 2) {
    const shapes = expect.shapes instanceof Map ? [...expect.shapes] : Object.entries(expect.shapes);
    this.expectKey = JSON.stringify([expect.dtype ?? null, expect.configHash ?? null, shapes]);
  }

  /**
   * Checks `bytes` of `object` on the next turn of the event loop, not inside the caller (a chunk callback, or a
   * publisher in this process handing its bytes over, which goes on to upload meanwhile).
   */
  schedule(object: string, bytes: Uint8Array): void {
    setImmediate(() => {
      if (!this.closed && this.results.get(object)?.bytes !== bytes) this.run(object, bytes);
    });
  }

  /** The checks of exactly these bytes of `object` (run now if they have not run yet), kept for take(). */
  peek(object: string, bytes: Uint8Array): EarlyResult {
    const done = this.results.get(object);
    if (done?.bytes === bytes) return done.result;
    this.run(object, bytes);
    return this.results.get(object)!.result;
  }

  /** The checks of exactly these bytes of `object` (run now if they have not run yet); handed out once. */
  take(object: string, bytes: Uint8Array): EarlyResult {
    const done = this.results.get(object);
    this.results.delete(object);
    return done?.bytes === bytes ? done.result : this.check(object, bytes);
  }

  close(): void {
    this.closed = true;
    this.results.clear();
  }

  private run(object: string, bytes: Uint8Array): void {
    const result = this.check(object, bytes);
    this.results.delete(object);
    // The newest few: bytes of a version the watcher coalesced past are dropped in turn.
    while (this.results.size >= this.keep) this.results.delete(this.results.keys().next().value!);
    this.results.set(object, { bytes, result });
  }

  private check(object: string, bytes: Uint8Array): EarlyResult {
    this.checked++;
    const sha256 = sha256Once(bytes);
    let byKey = decoded.get(bytes);
    if (byKey === undefined) decoded.set(bytes, (byKey = new Map()));
    let payload = byKey.get(this.expectKey);
    if (payload === undefined) {
      try {
        payload = decodeWeightPayload(bytes, { ...this.expect, object });
      } catch {
        payload = null;
      }
      byKey.set(this.expectKey, payload);
    }
    return { sha256, payload };
  }
}
