// Turns labeled trajectories into training rows (prompt ++ sampled tokens, behaviour log-probs, advantage) and
// decides admission by staleness. Pure; the trainer packs rows into (B, T) micro-batches.
import type { Labeled } from '../messages.js';
import { unpackFloats, unpackInts } from '../packed.js';
import { SampleShapeError } from './errors.js';

export interface Row {
  trajId: string;
  /** Prompt ids then sampled ids. */
  tokens: number[];
  /** Number of prompt tokens: the first trained prediction is at index promptLen − 1. */
  promptLen: number;
  /** Behaviour log π of each sampled token. */
  behaviour: Float32Array;
  advantage: number;
}

/** The oldest policy version that sampled any token of the trajectory. */
export function minVersion(traj: Labeled): number {
  let v = Infinity;
  for (const s of traj.samples) for (const x of ints(s.versions)) v = Math.min(v, x);
  return v;
}

/** Versions between the learner and the trajectory's oldest token (0 for an empty trajectory). */
export function staleness(learnerVersion: number, traj: Labeled): number {
  const v = minVersion(traj);
  return v === Infinity ? 0 : Math.max(0, learnerVersion - v);
}

export function admitted(learnerVersion: number, eta: number, traj: Labeled): boolean {
  return staleness(learnerVersion, traj) <= eta;
}

/** One row per sample; throws SampleShapeError for samples the model cannot score as sampled. */
export function trajectoryRows(traj: Labeled, limits: { contextLength: number; vocab: number }): Row[] {
  return traj.samples.flatMap((s, i) => {
    const prompt = ints(s.promptTokens), sampled = ints(s.tokens), lp = floats(s.logprobs), vs = ints(s.versions);
    if (sampled.length === 0) return [];
    const where = `sample ${i}`;
    if (lp.length !== sampled.length || vs.length !== sampled.length)
      throw new SampleShapeError(traj.trajId, `${where} has ${sampled.length} tokens, ${lp.length} log-probs and ${vs.length} versions`);
    if (prompt.length === 0) throw new SampleShapeError(traj.trajId, `${where} has no prompt: its first token has no context to be scored in`);
    const n = prompt.length + sampled.length;
    if (n > limits.contextLength) throw new SampleShapeError(traj.trajId, `${where} is ${n} tokens, the context holds ${limits.contextLength}`);
    const tokens = [...prompt, ...sampled];
    if (tokens.some((t) => t < 0 || t >= limits.vocab)) throw new SampleShapeError(traj.trajId, `${where} has token ids outside [0, ${limits.vocab})`);
    if (lp.some((x) => !Number.isFinite(x) || x > 0)) throw new SampleShapeError(traj.trajId, `${where} has behaviour log-probs that are not finite and <= 0`);
    return [{ trajId: traj.trajId, tokens, promptLen: prompt.length, behaviour: lp, advantage: traj.advantage }];
  });
}

/** Trained (sampled) tokens of a row. */
export const rowTokens = (r: Row): number => r.tokens.length - r.promptLen;

// msgpack hands bytes back as Node Buffers, whose slice() is a view into a shared pool: copy through
// Uint8Array.prototype.slice so the typed array owns exactly these bytes (actors/packed.ts's unpack* trip on this).
function ownBytes(bytes: Uint8Array): ArrayBuffer {
  return Uint8Array.prototype.slice.call(bytes).buffer;
}
const ints = (bytes: Uint8Array): Int32Array => (bytes.byteLength % 4 === 0 ? new Int32Array(ownBytes(bytes)) : unpackInts(bytes));
const floats = (bytes: Uint8Array): Float32Array => (bytes.byteLength % 4 === 0 ? new Float32Array(ownBytes(bytes)) : unpackFloats(bytes));
