// Cached rows are prefilled in calls of similar suffix lengths, so one long suffix (a history cut to fit the budget)
// does not pad the short ones to its length. Pure logic (bySuffixLength).
import t from 'tap';
import { bySuffixLength, type PrefixEntry } from '../../../model/sampler/prefix-cache.js';

const entry: PrefixEntry = { tokens: [], k: [], v: [], version: 1 };
/** A row with `n` new tokens after 10 reused ones. */
const row = (n: number, id: string): { id: string; prompt: number[]; hit: { entry: PrefixEntry; reuse: number } } => ({ id, prompt: new Array<number>(10 + n).fill(0), hit: { entry, reuse: 10 } });

t.test('suffixes within twice the shortest (plus 16) share a call; a long one gets its own', async (t) => {
  const groups = bySuffixLength([row(40, 'a'), row(900, 'cut'), row(60, 'b'), row(2, 'c'), row(95, 'd'), row(700, 'cut2')]);
  t.same(groups.map((g) => g.map((r) => r.id)), [['c'], ['a', 'b', 'd'], ['cut2', 'cut']]);
  t.same(bySuffixLength([]), []);
});
