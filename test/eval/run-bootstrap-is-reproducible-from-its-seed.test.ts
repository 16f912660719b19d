// The three-level bootstrap is seeded like the two-level one: the same seed gives the same interval, another seed
// another; tables of different shapes are refused naming the run.
import t from 'tap';
import { isEvalOptionsError, runEstimate } from '../../eval/index.js';

const runs = [[[1, 0, 1], [0, 0.5, 1], [0.25, 1, 0]], [[0, 0, 1], [1, 0.5, 0], [0, 1, 1]], [[1, 1, 1], [0, 0, 0], [0.5, 0.5, 1]]];

t.test('the three-level bootstrap is reproducible from its seed', async (t) => {
  const a = runEstimate(runs, { resamples: 300, seed: 3 })!;
  t.same(runEstimate(runs, { resamples: 300, seed: 3 }), a, 'same seed, same interval');
  t.not(JSON.stringify(runEstimate(runs, { resamples: 300, seed: 4 })!.ci95), JSON.stringify(a.ci95), 'another seed, another interval');
  let err: unknown;
  try {
    runEstimate([runs[0]!, [[1, 0, 1]]]);
  } catch (e) {
    err = e;
  }
  t.ok(isEvalOptionsError(err), 'a run with other environments is refused');
  t.match((err as Error).message, /runs\[1\]/, 'naming the run');
});
