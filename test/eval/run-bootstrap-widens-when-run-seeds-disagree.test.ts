// Two run seeds that learned different things: one solves environments x and y on every eval seed, the other on
// none. Averaging their tables first (the two-level bootstrap) gives a constant 0.5 table and a zero-width interval;
// resampling the run seeds too puts the interval at [0, 1] (a replicate that draws the same run twice is all 0 or
// all 1), while the point estimate stays the plain mean 0.5. Paired against a base, the same holds for the difference.
import t from 'tap';
import { averageTables, estimate, runEstimate, runPairedDifference } from '../../eval/index.js';

const good = [[1, 1], [1, 1]];
const bad = [[0, 0], [0, 0]];

t.test('the three-level interval widens when run seeds disagree', async (t) => {
  t.same(estimate(averageTables([good, bad]), { resamples: 400 }), { mean: 0.5, ci95: [0.5, 0.5] }, 'two levels: the runs\' disagreement is invisible');
  const r = runEstimate([good, bad], { resamples: 400 })!;
  t.equal(r.mean, 0.5, 'the point estimate is the plain mean');
  t.same(r.ci95, [0, 1], 'the run level: a quarter of the replicates draw the good run twice, a quarter the bad one');
  t.same(r.resampled, ['runSeeds', 'environments', 'evalSeeds']);
  t.equal(r.runs, 2);
  const d = runPairedDifference([good, bad], [bad], { resamples: 400 })!;
  t.equal(d.mean, 0.5, 'one base table stands for every run');
  t.same(d.ci95, [0, 1]);
  const agree = runEstimate([good, good], { resamples: 400 })!;
  t.same(agree.ci95, [1, 1], 'runs that agree: no width from the run level');
});
