// The environment-memory entry: one per accepted environment in KV bucket BUCKETS.envMemory, written by the
// designer when it accepts an environment (stats zero, evaluated: false) and updated by the evaluator.
import { defineMessage } from '../../../runtime/messages.js';
import * as s from '../../../runtime/schema.js';

const rate = s.number({ min: 0, max: 1 });

export const MEMORY_ENTRY = s.object({
  envId: s.string({ min: 1, max: 200 }),
  name: s.string(),
  description: s.string(),
  /** 'reasoning' | 'tools' | 'games' | 'unknown'. */
  family: s.string(),
  codeHash: s.string(),
  /** The module's code, so a later designer can edit it (absent in entries written before parents were shown). */
  code: s.optional(s.string({ max: 64 * 1024 })),
  /** Grounding document (corpus chunk id); absent without corpus grounding and for library environments. */
  docId: s.optional(s.string()),
  /** envIds of the memory entries shown to the designer that wrote this one. */
  parents: s.array(s.string()),
  iteration: s.int({ min: 0 }),
  /** 'designer' for sampled environments, 'library' for the fixed-environment baseline. */
  source: s.literal('designer', 'library'),
  /** ms since epoch. */
  createdAt: s.number({ min: 0 }),
  updatedAt: s.number({ min: 0 }),
  /** False until the evaluator has filled the stats below; until then they are 0 and mean "unknown". */
  evaluated: s.boolean(),
  /** Mean return with hint − mean return without (the evaluator's definition). */
  regret: s.number(),
  returnHint: s.number(),
  returnNoHint: s.number(),
  /** Fraction of episodes that scored at least the evaluator's τ, per arm (the agent's frontier). */
  solveRateHint: s.optional(rate),
  solveRateNoHint: s.optional(rate),
  feasible: s.optional(s.boolean()),
  /** Evaluations folded into the stats (an environment may be replayed and re-evaluated). */
  evaluations: s.int({ min: 0 }),
});
export type MemoryEntry = s.Infer<typeof MEMORY_ENTRY>;

/** The KV value format: the project's msgpack envelope, validated on read. */
export const MemoryEntryRecord = defineMessage('memory.entry', 1, MEMORY_ENTRY);

/** The stats the evaluator writes (MemoryStore.recordEvaluation). */
export interface MemoryStats {
  regret: number;
  returnHint: number;
  returnNoHint: number;
  solveRateHint?: number;
  solveRateNoHint?: number;
  feasible?: boolean;
}

const KEY_SAFE = /^[-_=A-Za-z0-9]{1,200}$/;

/** KV key of an environment: the envId when it is a valid single-token key, else a sanitised form plus a hash. */
export function memoryKey(envId: string): string {
  if (KEY_SAFE.test(envId)) return envId;
  let h = 0x811c9dc5;
  for (let i = 0; i < envId.length; i++) h = Math.imul(h ^ envId.charCodeAt(i), 0x01000193);
  return `${envId.replace(/[^-_=A-Za-z0-9]/g, '_').slice(0, 180)}=${(h >>> 0).toString(16)}`;
}

/** A fresh entry for a just-accepted environment: stats unknown (0, evaluated false). */
export function newMemoryEntry(e: Omit<MemoryEntry, 'createdAt' | 'updatedAt' | 'evaluated' | 'regret' | 'returnHint' | 'returnNoHint' | 'evaluations'>, now = Date.now()): MemoryEntry {
  return { ...e, createdAt: now, updatedAt: now, evaluated: false, regret: 0, returnHint: 0, returnNoHint: 0, evaluations: 0 };
}

/** Folds new stats into an entry: the latest evaluation replaces the stats; the count goes up. */
export function withEvaluation(entry: MemoryEntry, stats: MemoryStats, now = Date.now()): MemoryEntry {
  const out: MemoryEntry = {
    ...entry, regret: stats.regret, returnHint: stats.returnHint, returnNoHint: stats.returnNoHint,
    evaluated: true, evaluations: entry.evaluations + 1, updatedAt: now,
  };
  for (const f of ['solveRateHint', 'solveRateNoHint', 'feasible'] as const) if (stats[f] !== undefined) (out as Record<string, unknown>)[f] = stats[f];
  return out;
}
