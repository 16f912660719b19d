// Which memory entries the designer sees: some near the agent's frontier (high regret, solve rate neither 0 nor 1)
// and some chosen for diversity (families and names not yet shown). Pure and deterministic given the seed.
import { makeRandom } from '../../../sandbox/index.js';
import type { MemoryEntry } from './memory-entry.js';

export interface RetrieveOptions {
  /** Entries to return (fewer when the memory holds fewer). */
  k: number;
  /** Share of k taken from the frontier (rounded); the rest are diverse picks. */
  frontierFraction: number;
  /** Frontier picks are drawn, weighted by score, from the best `frontierPool` × their count. */
  frontierPool: number;
  seed: number;
}

export interface Retrieved {
  entry: MemoryEntry;
  why: 'frontier' | 'diverse';
}

/**
 * How close an evaluated entry is to the frontier: its regret plus a bonus for a no-hint solve rate near 1/2
 * (an environment the agent sometimes solves teaches most). Unevaluated entries score null.
 */
export function frontierScore(e: MemoryEntry): number | null {
  if (!e.evaluated) return null;
  const solve = e.solveRateNoHint ?? e.returnNoHint;
  const middle = 1 - Math.abs(2 * Math.min(1, Math.max(0, solve)) - 1);
  return Math.max(0, e.regret) + 0.5 * middle;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Frontier picks: weighted draws without replacement from the top of the score ranking. */
function pickFrontier(entries: MemoryEntry[], n: number, pool: number, random: () => number): MemoryEntry[] {
  const scored = entries
    .map((entry) => ({ entry, score: frontierScore(entry) }))
    .filter((x): x is { entry: MemoryEntry; score: number } => x.score !== null && x.score > 0)
    .sort((a, b) => b.score - a.score || (a.entry.envId < b.entry.envId ? -1 : 1))
    .slice(0, Math.max(n, Math.ceil(n * pool)));
  const out: MemoryEntry[] = [];
  while (out.length < n && scored.length) {
    const total = scored.reduce((a, x) => a + x.score, 0);
    let u = random() * total;
    let i = 0;
    while (i < scored.length - 1 && u >= scored[i]!.score) u -= scored[i++]!.score;
    out.push(scored.splice(i, 1)[0]!.entry);
  }
  return out;
}

/** Diverse picks: in seeded order, always the candidate whose family is least represented so far and whose name is new. */
function pickDiverse(candidates: MemoryEntry[], chosen: MemoryEntry[], n: number, random: () => number): MemoryEntry[] {
  const families = new Map<string, number>();
  const names = new Set<string>();
  for (const e of chosen) (families.set(e.family, (families.get(e.family) ?? 0) + 1), names.add(e.name));
  let rest = shuffle(candidates, random);
  const out: MemoryEntry[] = [];
  while (out.length < n && rest.length) {
    let best = -1, bestKey = Infinity;
    rest.forEach((e, i) => {
      const key = (families.get(e.family) ?? 0) * 2 + (names.has(e.name) ? 1 : 0);
      if (key < bestKey) (bestKey = key, best = i);
    });
    const e = rest[best]!;
    rest = rest.filter((_, i) => i !== best);
    out.push(e);
    families.set(e.family, (families.get(e.family) ?? 0) + 1);
    names.add(e.name);
  }
  return out;
}

export function retrieve(entries: readonly MemoryEntry[], o: RetrieveOptions): Retrieved[] {
  if (o.k <= 0 || entries.length === 0) return [];
  const sorted = [...entries].sort((a, b) => (a.envId < b.envId ? -1 : a.envId > b.envId ? 1 : 0));
  const random = makeRandom(o.seed);
  const frontier = pickFrontier(sorted, Math.min(o.k, Math.round(o.k * o.frontierFraction)), o.frontierPool, random);
  const taken = new Set(frontier.map((e) => e.envId));
  const diverse = pickDiverse(sorted.filter((e) => !taken.has(e.envId)), frontier, o.k - frontier.length, random);
  return [...frontier.map((entry) => ({ entry, why: 'frontier' as const })), ...diverse.map((entry) => ({ entry, why: 'diverse' as const }))];
}
