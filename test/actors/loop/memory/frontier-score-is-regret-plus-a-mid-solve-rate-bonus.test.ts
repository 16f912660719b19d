// An entry's frontier score is its regret plus a bonus for a mid solve rate, and null until it is evaluated.
import t from 'tap';
import { frontierScore } from '../../../../actors/loop/memory/retrieve.js';
import { entries } from './memory-entries.js';

t.test('frontier score: regret plus a bonus for a mid solve rate; null until evaluated', async (t) => {
  t.equal(frontierScore(entries[8]!), null);
  t.ok(frontierScore(entries[4]!)! > frontierScore(entries[0]!)!, 'more regret scores higher');
  t.ok(frontierScore(entries[0]!)! > frontierScore(entries[5]!)!, 'a solved environment is far from the frontier');
  t.equal(frontierScore(entries[7]!), 0, 'never solved and no regret: no frontier value');
});
