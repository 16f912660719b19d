// Shared setup of the weight-sync tests: a real nats-server with the topology, two connections (a learner's and a
// sampler's), a small model config and helpers to compare weights bit for bit.
import { initParameters, parameterShapes } from '../../model/decoder.js';
import { validateDecoderConfig, type DecoderConfig } from '../../model/decoder-config.js';
import type { Weights } from '../../model/session.js';
import type { Connection } from '../../runtime/connection.js';
import { connected, natsServer, testConfig, type Teardown } from '../helpers/nats.js';

export const SMALL: DecoderConfig = { layers: 1, width: 16, heads: 2, contextLength: 16, vocab: 32, ffnHidden: 32 };
export const SMALL_CONFIG = validateDecoderConfig(SMALL);
export const SMALL_SHAPES = parameterShapes(SMALL);

export async function twoConnections(t: Teardown): Promise<{ learner: Connection; sampler: Connection }> {
  const server = await natsServer(t);
  const config = await testConfig([server.url]);
  const learner = await connected(t, config);
  const sampler = await connected(t, config, false);
  return { learner, sampler };
}

export const smallWeights = (seed: number): Map<string, Float32Array> => initParameters(SMALL, seed);

/** Names and raw bytes identical (so NaN payloads and -0 count too). */
export function sameBits(a: Weights, b: Weights): boolean {
  if (a.size !== b.size) return false;
  for (const [name, x] of a) {
    const y = b.get(name);
    if (y === undefined || x.constructor !== y.constructor) return false;
    if (Buffer.compare(Buffer.from(x.buffer, x.byteOffset, x.byteLength), Buffer.from(y.buffer, y.byteOffset, y.byteLength)) !== 0) return false;
  }
  return true;
}

/** A promise plus its resolve, for awaiting a callback without polling. */
export function signal<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
