// Retrieval gives the designer entries near the agent's frontier (high regret, mid solve rate) and diverse ones
// (other families, other names), the same ones for the same seed.
import t from 'tap';
import { retrieve } from '../../../../actors/loop/memory/retrieve.js';
import { entries } from './memory-entries.js';

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
