// The labeled batches the learner benchmarks train on: deterministic agent trajectories of 24 prompt and 24 sampled
// tokens, 4 per batch, half with advantage +1 and half -1, published to the labeled-trajectory subject.
import { LabeledBatch, packFloats, packInts, type Labeled } from '../actors/loop/index.js';
import type { Connection } from '../runtime/connection.js';
import { encode } from '../runtime/messages.js';
import { SUBJECTS } from '../runtime/subjects.js';

/** `n` labeled batches of 4 trajectories each (the same for every run). */
export function trajectories(n: number): Array<{ id: string; trajs: Labeled[] }> {
  let seed = 7;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, (_, b) => ({
    id: `b${b}`,
    trajs: Array.from({ length: 4 }, (_, j) => {
      const tokens = Array.from({ length: 24 }, () => 3 + Math.floor(rand() * 2000));
      return {
        trajId: `b${b}-${j}`, role: 'agent' as const, advantage: rand() < 0.5 ? -1 : 1, reward: 0,
        samples: [{ promptTokens: packInts(Array.from({ length: 24 }, () => 3 + Math.floor(rand() * 2000))), tokens: packInts(tokens), logprobs: packFloats(tokens.map(() => -3)), versions: packInts(tokens.map(() => 0)), text: '', finishReason: 'stop' }],
      };
    }),
  }));
}

/** Publishes the batches (deduplicated by batch id). */
export async function publishAll(conn: Connection, batches: Array<{ id: string; trajs: Labeled[] }>): Promise<void> {
  for (const b of batches) {
    await conn.js.publish(SUBJECTS.trajLabeled, encode(LabeledBatch, { batchId: b.id, envId: b.id, iteration: 0, accepted: true, designerReward: 0, trajectories: b.trajs }), { msgID: `traj.labeled:${b.id}` });
  }
}
