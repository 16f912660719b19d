// Shared by the retrieval tests: five strong frontier entries, all reasoning; weak or solved ones in other
// families; a few unevaluated.
import { newMemoryEntry, withEvaluation, type MemoryEntry } from '../../../../actors/loop/memory/memory-entry.js';

export function entry(envId: string, family: string, name: string, stats?: { regret: number; returnHint: number; returnNoHint: number; solveRateNoHint?: number }): MemoryEntry {
  const e = newMemoryEntry({ envId, name, description: `${name} task`, family, codeHash: 'h', parents: [], iteration: 0, source: 'designer' }, 1);
  return stats ? withEvaluation(e, stats, 2) : e;
}

export const entries: MemoryEntry[] = [
  ...Array.from({ length: 5 }, (_, i) => entry(`r${i}`, 'reasoning', `puzzle-${i}`, { regret: 0.6 + i * 0.05, returnHint: 0.9, returnNoHint: 0.4, solveRateNoHint: 0.5 })),
  entry('g0', 'games', 'nim', { regret: 0, returnHint: 1, returnNoHint: 1, solveRateNoHint: 1 }),
  entry('g1', 'games', 'maze', { regret: 0.05, returnHint: 0.1, returnNoHint: 0.05, solveRateNoHint: 0 }),
  entry('t0', 'tools', 'pay-bill', { regret: 0, returnHint: 0, returnNoHint: 0, solveRateNoHint: 0 }),
  entry('t1', 'tools', 'pay-bill'),
  entry('u0', 'unknown', 'fresh'),
];
