// A pipelined object-store upload. @nats-io/obj's put waits for each chunk's ack before it sends the next, so a
// 13 MB payload in 1 MiB chunks pays 13 round trips that each include the server's write (about 95 ms here). This
// sends a window of chunks back to back and awaits their acks together (about 40–65 ms), then writes the object's
// meta message. It writes the object store's own format (ADR-20: chunks on `$O.<bucket>.C.<nuid>`, then one
// rollup meta message on `$O.<bucket>.M.<base64url name>` carrying size, chunk count and the SHA-256 digest), so
// any client reads the object back, and checks its digest, as usual. Same subjects as a put: no new permissions.
import { createHash } from 'node:crypto';
import { headers as natsHeaders, nuid } from '@nats-io/nats-core';
import type { JetStreamClient, JetStreamManager, PubAck } from '@nats-io/jetstream';
import { NATS_SUBJECTS, objectMetaToken } from '../runtime/subjects.js';

export interface PipelinedPutOptions {
  /** Bytes per chunk; the caller caps it at the server's max_payload. */
  chunkBytes: number;
  /** Chunks in flight at once: bounds the client's buffered bytes to window × chunkBytes for any model size. */
  window: number;
  /** Per-publish ack timeout. */
  timeoutMs: number;
}

export interface PipelinedPutResult {
  /** `SHA-256=<base64url>`, the digest the store's readers check every byte against. */
  digest: string;
  chunks: number;
}

/**
 * Uploads `bytes` as object `name` of `bucket`. On any failure the chunks that did land are purged (the meta message
 * is written last, so an object is never visible with chunks missing) and the error is rethrown.
 */
export async function putPipelined(
  js: JetStreamClient, jsm: JetStreamManager, bucket: string, name: string, bytes: Uint8Array, o: PipelinedPutOptions,
): Promise<PipelinedPutResult> {
  const id = nuid.next();
  const chunkSubject = NATS_SUBJECTS.objectChunks(bucket, id);
  const inFlight = new Set<Promise<PubAck>>();
  let chunks = 0;
  try {
    for (let at = 0; at < bytes.length; at += o.chunkBytes) {
      const ack = js.publish(chunkSubject, bytes.subarray(at, Math.min(bytes.length, at + o.chunkBytes)), { timeout: o.timeoutMs });
      chunks++;
      inFlight.add(ack);
      void ack.then(() => inFlight.delete(ack), () => undefined);
      if (inFlight.size >= o.window) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    const digest = `SHA-256=${createHash('sha256').update(bytes).digest('base64').replace(/\+/g, '-').replace(/\//g, '_')}`;
    const meta = {
      name, description: '', options: { max_chunk_size: o.chunkBytes },
      bucket, nuid: id, size: bytes.length, chunks, mtime: new Date().toISOString(), digest, deleted: false,
    };
    const h = natsHeaders();
    h.set('Nats-Rollup', 'sub');
    await js.publish(NATS_SUBJECTS.objectMeta(bucket, objectMetaToken(name)), JSON.stringify(meta), { headers: h, timeout: o.timeoutMs });
    return { digest, chunks };
  } catch (err) {
    await Promise.allSettled(inFlight);
    await jsm.streams.purge(NATS_SUBJECTS.objectStream(bucket), { filter: chunkSubject }).catch(() => undefined);
    throw err;
  }
}
