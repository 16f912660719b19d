// Retrieval gives the designer entries near the agent's frontier (high regret, mid solve rate) and diverse ones
// (other families, other names), the same ones for the same seed; unevaluated entries only ever come as diverse.
import t from 'tap';
import { frontierScore, retrieve } from '../../../actors/memory/retrieve.js';
import { newMemoryEntry, withEvaluation, type MemoryEntry } from '../../../actors/memory/memory-entry.js';

function entry(envId: string, family: string, name: string, stats?: { regret: number; returnHint: number; returnNoHint: number; solveRateNoHint?: number }): MemoryEntry {
  const e = newMemoryEntry({ envId, name, description: `${name} task`, family, codeHash: 'h', parents: [], iteration: 0, source: 'designer' }, 1);
  return stats ? withEvaluation(e, stats, 2) : e;
}

// Five strong frontier entries, all reasoning; weak or solved ones in other families; a few unevaluated.
const entries: MemoryEntry[] = [
  ...Array.from({ length: 5 }, (_, i) => entry(`r${i}`, 'reasoning', `puzzle-${i}`, { regret: 0.6 + i * 0.05, returnHint: 0.9, returnNoHint: 0.4, solveRateNoHint: 0.5 })),
  entry('g0', 'games', 'nim', { regret: 0, returnHint: 1, returnNoHint: 1, solveRateNoHint: 1 }),
  entry('g1', 'games', 'maze', { regret: 0.05, returnHint: 0.1, returnNoHint: 0.05, solveRateNoHint: 0 }),
  entry('t0', 'tools', 'pay-bill', { regret: 0, returnHint: 0, returnNoHint: 0, solveRateNoHint: 0 }),
  entry('t1', 'tools', 'pay-bill'),
  entry('u0', 'unknown', 'fresh'),
];

t.test('frontier score: regret plus a bonus for a mid solve rate; null until evaluated', async (t) => {
  t.equal(frontierScore(entries[8]!), null);
  t.ok(frontierScore(entries[4]!)! > frontierScore(entries[0]!)!, 'more regret scores higher');
  t.ok(frontierScore(entries[0]!)! > frontierScore(entries[5]!)!, 'a solved environment is far from the frontier');
  t.equal(frontierScore(entries[7]!), 0, 'never solved and no regret: no frontier value');
});

t.test('half frontier, half diverse, deterministic per seed', async (t) => {
  const picks = retrieve(entries, { k: 4, frontierFraction: 0.5, frontierPool: 1.5, seed: 11 });
  t.equal(picks.length, 4);
  const frontier = picks.filter((p) => p.why === 'frontier').map((p) => p.entry);
  const diverse = picks.filter((p) => p.why === 'diverse').map((p) => p.entry);
  t.equal(frontier.length, 2);
  t.ok(frontier.every((e) => e.family === 'reasoning' && e.regret >= 0.7), 'frontier picks come from the top of the ranking (pool of 3)');
  t.ok(diverse.every((e) => e.family !== 'reasoning'), 'diverse picks avoid the family the frontier already shows');
  t.not(diverse[0]!.family, diverse[1]!.family, 'and each other\'s family');
  t.equal(new Set(picks.map((p) => p.entry.envId)).size, 4, 'no entry twice');
  t.same(retrieve(entries, { k: 4, frontierFraction: 0.5, frontierPool: 1.5, seed: 11 }), picks, 'same seed, same picks');
  const seen = new Set<string>();
  for (let seed = 0; seed < 20; seed++) for (const p of retrieve(entries, { k: 4, frontierFraction: 0.5, frontierPool: 1.5, seed })) seen.add(p.entry.envId);
  t.ok(seen.size >= 7, `other seeds show other entries (${seen.size} distinct over 20 seeds)`);
});

t.test('edge cases: empty memory, k above the memory size, all-diverse, unevaluated only', async (t) => {
  t.same(retrieve([], { k: 4, frontierFraction: 0.5, frontierPool: 3, seed: 1 }), []);
  t.equal(retrieve(entries, { k: 50, frontierFraction: 0.5, frontierPool: 3, seed: 1 }).length, entries.length);
  const all = retrieve(entries, { k: 3, frontierFraction: 0, frontierPool: 3, seed: 2 });
  t.same(new Set(all.map((p) => p.entry.family)).size, 3, 'three diverse picks span three families');
  const fresh = retrieve([entries[8]!, entries[9]!], { k: 2, frontierFraction: 1, frontierPool: 3, seed: 3 });
  t.same(fresh.map((p) => p.why), ['diverse', 'diverse'], 'unevaluated entries fill in as diverse picks');
});
