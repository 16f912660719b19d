// Retrieval from an empty memory, with k above the memory size, all-diverse, or from unevaluated entries only
// (which only ever come as diverse picks).
import t from 'tap';
import { retrieve } from '../../../../actors/loop/memory/retrieve.js';
import { entries } from './memory-entries.js';

t.test('edge cases: empty memory, k above the memory size, all-diverse, unevaluated only', async (t) => {
  t.same(retrieve([], { k: 4, frontierFraction: 0.5, frontierPool: 3, seed: 1 }), []);
  t.equal(retrieve(entries, { k: 50, frontierFraction: 0.5, frontierPool: 3, seed: 1 }).length, entries.length);
  const all = retrieve(entries, { k: 3, frontierFraction: 0, frontierPool: 3, seed: 2 });
  t.same(new Set(all.map((p) => p.entry.family)).size, 3, 'three diverse picks span three families');
  const fresh = retrieve([entries[8]!, entries[9]!], { k: 2, frontierFraction: 1, frontierPool: 3, seed: 3 });
  t.same(fresh.map((p) => p.why), ['diverse', 'diverse'], 'unevaluated entries fill in as diverse picks');
});
