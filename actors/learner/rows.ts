// Turns labeled trajectories into training rows (token ids, the positions whose log-probs are trained, their
// behaviour log-probs, the advantage) and decides admission by staleness. Consecutive turns of an agent episode
// whose prompt extends the previous prompt and completion are merged into one row: causal attention gives every
// sampled token exactly the context it was sampled in, and the shared prefix is computed once instead of per turn.
import type { Labeled } from '../loop/messages.js';
import { unpackFloats, unpackInts } from '../loop/packed.js';
import { SampleShapeError } from './errors.js';

export type Role = 'designer' | 'agent';
export const ROLES: readonly Role[] = ['designer', 'agent'];

export interface Row {
  trajId: string;
  /** Whose tokens these are: the loss takes a token mean per role (absent = agent). */
  role?: Role;
  tokens: number[];
  /** Indices into tokens of the sampled (trained) tokens, ascending, each >= 1 (scored from what precedes it). */
  positions: number[];
  /** Behaviour log π of each trained token, aligned with positions. */
  behaviour: Float32Array;
  advantage: number;
  /**
   * Temperature the row's tokens were drawn at (> 0; absent = 1): the behaviour log-probs are of that distribution,
   * and the learner scores the tokens at it. Greedy samples (temperature 0) count as 1, as before temperatures were sent.
   */
  temperature?: number;
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

const startsWith = (a: Int32Array, prefix: readonly number[]): boolean => a.length >= prefix.length && prefix.every((x, i) => a[i] === x);

/** Rows of one trajectory; throws SampleShapeError for samples the model cannot score as sampled. */
export function trajectoryRows(traj: Labeled, limits: { contextLength: number; vocab: number }, merge = true): Row[] {
  const rows: Row[] = [];
  type Open = { tokens: number[]; positions: number[]; behaviour: number[]; temperature: number };
  let cur: Open | null = null;
  const flush = (): void => {
    if (cur) {
      const { tokens, positions, behaviour, temperature } = cur;
      rows.push({ trajId: traj.trajId, role: traj.role, tokens, positions, behaviour: Float32Array.from(behaviour), advantage: traj.advantage, ...(temperature !== 1 ? { temperature } : {}) });
    }
    cur = null;
  };
  traj.samples.forEach((s, i) => {
    const prompt = ints(s.promptTokens), sampled = ints(s.tokens), lp = floats(s.logprobs), vs = ints(s.versions);
    if (sampled.length === 0) return;
    const where = `sample ${i}`;
    if (lp.length !== sampled.length || vs.length !== sampled.length)
      throw new SampleShapeError(traj.trajId, `${where} has ${sampled.length} tokens, ${lp.length} log-probs and ${vs.length} versions`);
    if (prompt.length === 0) throw new SampleShapeError(traj.trajId, `${where} has no prompt: its first token has no context to be scored in`);
    const n = prompt.length + sampled.length;
    if (n > limits.contextLength) throw new SampleShapeError(traj.trajId, `${where} is ${n} tokens, the context holds ${limits.contextLength}`);
    if (prompt.some((t) => t < 0 || t >= limits.vocab) || sampled.some((t) => t < 0 || t >= limits.vocab))
      throw new SampleShapeError(traj.trajId, `${where} has token ids outside [0, ${limits.vocab})`);
    if (lp.some((x) => !Number.isFinite(x) || x > 0)) throw new SampleShapeError(traj.trajId, `${where} has behaviour log-probs that are not finite and <= 0`);
    const temperature = s.temperature ? s.temperature : 1;
    const c = cur as Open | null;
    if (!(merge && c && c.temperature === temperature && startsWith(prompt, c.tokens))) {
      flush();
      cur = { tokens: [], positions: [], behaviour: [], temperature };
    }
    const row = cur!;
    for (let j = row.tokens.length; j < prompt.length; j++) row.tokens.push(prompt[j]!);
    for (let j = 0; j < sampled.length; j++) {
      row.positions.push(row.tokens.length);
      row.tokens.push(sampled[j]!);
      row.behaviour.push(lp[j]!);
    }
  });
  flush();
  return rows;
}

/** Trained (sampled) tokens of a row. */
export const rowTokens = (r: Row): number => r.positions.length;

export const roleOf = (r: Row): Role => r.role ?? 'agent';

/** Trained tokens per role of some rows: the default denominators of the per-role token means. */
export function roleTokens(rows: readonly Row[]): Record<Role, number> {
  const n: Record<Role, number> = { designer: 0, agent: 0 };
  for (const r of rows) n[roleOf(r)] += rowTokens(r);
  return n;
}

// msgpack hands bytes back as Node Buffers, whose slice() is a view into a shared pool: copy through
// Uint8Array.prototype.slice so the typed array owns exactly these bytes (actors/loop/packed.ts's unpack* trip on this).
function ownBytes(bytes: Uint8Array): ArrayBuffer {
  return Uint8Array.prototype.slice.call(bytes).buffer;
}
const ints = (bytes: Uint8Array): Int32Array => (bytes.byteLength % 4 === 0 ? new Int32Array(ownBytes(bytes)) : unpackInts(bytes));
const floats = (bytes: Uint8Array): Float32Array => (bytes.byteLength % 4 === 0 ? new Float32Array(ownBytes(bytes)) : unpackFloats(bytes));
