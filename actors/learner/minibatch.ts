// When to update and on what: pure selection over the learner's buffer. Two modes:
//   iteration-aligned (iterationBatches > 0): train the oldest iteration once all its batches (one per design job)
//     are in, so each iteration is one update and one version, matching the coordinator's schedule;
//   size (iterationBatches = 0): train once minibatchTrajectories or minibatchTokens are buffered.
// Either way a buffer that saw nothing new for flushAfterMs is trained as it is, so the loop never stalls.
import type { Role, Row } from './rows.js';

export interface Buffered {
  trajId: string;
  role: Role;
  rows: Row[];
  /** Trained tokens of the rows. */
  tokens: number;
  minVersion: number;
  advantage: number;
  iteration: number;
}

export interface MinibatchOptions {
  minibatchTrajectories: number;
  minibatchTokens: number;
  flushAfterMs: number;
  iterationBatches: number;
}

export type Selection = { take: Buffered[] } | { waitMs: number };

/**
 * Takes the next minibatch out of `buffer` (in place), or says how long to wait. `batchesOf(i)` = distinct
 * labeled batches received for iteration i; `quietMs` = time since the last arrival.
 */
export function selectMinibatch(buffer: Buffered[], batchesOf: (iteration: number) => number, quietMs: number, o: MinibatchOptions): Selection {
  if (buffer.length === 0) return { waitMs: 1_000 };
  const flush = quietMs >= o.flushAfterMs;
  const waitMs = Math.max(1, o.flushAfterMs - quietMs);
  if (o.iterationBatches > 0) {
    const oldest = Math.min(...buffer.map((b) => b.iteration));
    if (!flush && batchesOf(oldest) < o.iterationBatches) return { waitMs };
    const take = buffer.filter((b) => b.iteration === oldest);
    const rest = buffer.filter((b) => b.iteration !== oldest);
    buffer.splice(0, buffer.length, ...rest);
    return { take };
  }
  const tokens = buffer.reduce((n, b) => n + b.tokens, 0);
  if (!flush && buffer.length < o.minibatchTrajectories && tokens < o.minibatchTokens) return { waitMs };
  const take: Buffered[] = [];
  let taken = 0;
  while (buffer.length > 0 && take.length < o.minibatchTrajectories && taken < o.minibatchTokens) {
    const b = buffer.shift()!;
    take.push(b);
    taken += b.tokens;
  }
  return { take };
}
