// Rows are cut into passes by length where the padding a cut saves outweighs what one more pass costs
// (passTokens): against every contiguous split of the sorted rows, the cut is the cheapest one within the bounds.
// Pure logic; that any grouping accumulates to the same gradients is micro-batches-accumulate-to-the-gradients-of-one-batch.
import t from 'tap';
import type { Row } from '../../../actors/learner/index.js';
import { DEFAULT_PASS_TOKENS, microBatches } from '../../../actors/learner/micro-batches.js';
import { DEFAULT_LEARNER_OPTIONS } from '../../../actors/learner/options.js';

const rows = (lengths: number[]): Row[] => lengths.map((n, i) => ({ trajId: `r${i}`, tokens: new Array<number>(n).fill(1) }) as unknown as Row);
const shape = (mbs: Row[][]) => mbs.map((mb) => mb.map((r) => r.tokens.length));
const padded = (mbs: Row[][]) => mbs.reduce((n, mb) => n + mb.length * mb[0]!.tokens.length, 0);

/** The cheapest cost over every contiguous split of the length-sorted rows within the bounds (2^(n-1) of them). */
function bruteForce(lengths: number[], budget: number, cells: number, pass: number): number {
  const w = [...lengths].sort((a, b) => b - a);
  let best = Infinity;
  for (let mask = 0; mask < 2 ** (w.length - 1); mask++) {
    let cost = 0, start = 0, ok = true;
    for (let i = 1; i <= w.length; i++) {
      if (i < w.length && !(mask & (1 << (i - 1)))) continue;
      const n = i - start, width = w[start]!;
      if (n > 1 && (n * width > budget || n * width * width > cells)) ok = false;
      cost += n * width + pass;
      start = i;
    }
    if (ok) best = Math.min(best, cost);
  }
  return best;
}

t.test('micro-batches are cut where the padding saved outweighs a pass', async (t) => {
  const mixed = rows([160, 160, 160, 160, 60, 60, 60, 60]);
  t.same(shape(microBatches(mixed, 8_192, Infinity, 256)), [[160, 160, 160, 160], [60, 60, 60, 60]], '400 padded tokens saved, more than a pass costs');
  t.same(shape(microBatches(mixed, 8_192, Infinity, 500)), [[160, 160, 160, 160, 60, 60, 60, 60]], 'not when a pass costs more than that');
  t.same(shape(microBatches(rows([5, 4, 4, 3]), 8_192, Infinity, 0)), [[5], [4, 4], [3]], 'free passes: one per length');
  t.same(shape(microBatches(rows([30, 20, 10]), 39, Infinity, 1_000)), [[30], [20], [10]], 'the token budget still bounds a pass');
  t.same(shape(microBatches(rows([3000, 10]), 8_192, 2 ** 23, 10 ** 9)), [[3000], [10]], 'and the attention cells');
  t.equal(DEFAULT_LEARNER_OPTIONS.batching.microBatchPassTokens, DEFAULT_PASS_TOKENS, 'the learner cuts at the default cost');

  // Random minibatches: every row once, within the bounds, at the brute force's cost.
  let seed = 7;
  const rand = (n: number): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n);
  let checked = 0;
  for (let k = 0; k < 200; k++) {
    const lengths = Array.from({ length: 1 + rand(10) }, () => 2 + rand(rand(2) ? 200 : 40));
    const budget = 64 + rand(800), cells = rand(2) ? Infinity : 20_000 + rand(200_000), pass = rand(300);
    const mbs = microBatches(rows(lengths), budget, cells, pass);
    const ids = mbs.flat().map((r) => r.trajId).sort();
    if (ids.join() !== rows(lengths).map((r) => r.trajId).sort().join()) t.fail(`case ${k}: rows lost or repeated`);
    for (const mb of mbs) {
      const width = Math.max(...mb.map((r) => r.tokens.length));
      if (mb.length > 1 && (mb.length * width > budget || mb.length * width * width > cells)) t.fail(`case ${k}: a pass over the bounds`);
    }
    const cost = padded(mbs) + pass * mbs.length, best = bruteForce(lengths, budget, cells, pass);
    if (cost !== best) t.fail(`case ${k}: cost ${cost}, the cheapest split costs ${best} (lengths ${lengths}, budget ${budget}, cells ${cells}, pass ${pass})`);
    else checked++;
  }
  t.equal(checked, 200, 'the cheapest split in 200 random minibatches');
});
