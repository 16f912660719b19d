// The evaluation's statistics against cases worked out by hand: equal-weight means, percentile quantiles, the
// two-level bootstrap's support (environments resampled first, so two constant environments give [0, 1], not the
// narrow interval a flat bootstrap over cells would), seed-paired differences, reproducibility and bad input.
import t from 'tap';
import { caught } from '../model/tokenizer/helpers.js';
import { clusterReplicates, estimate, pairedDifference, quantile, tableMean } from '../../eval/bootstrap.js';
import { isEvalOptionsError } from '../../eval/errors.js';

const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-12;

const failsWith = (fn: () => unknown, ok: (e: unknown) => boolean): boolean => ok(caught(fn));

t.test('bootstrap estimates match hand-computed cases', async (t) => {
  t.test('means weigh every environment equally, whatever its seed count', async (t) => {
    t.equal(tableMean([[0, 1], [1, 1]]), 0.75);
    t.ok(close(tableMean([[1], [0, 0, 1]]), 2 / 3));
  });

  t.test('quantiles interpolate between order statistics', async (t) => {
    t.equal(quantile([0, 1, 2, 3], 0.5), 1.5);
    t.ok(close(quantile([0, 10], 0.025), 0.25));
    t.equal(quantile([4], 0.975), 4);
  });

  t.test('a constant table has a zero-width interval', async (t) => {
    t.same(estimate([[0.5, 0.5], [0.5, 0.5]]), { mean: 0.5, ci95: [0.5, 0.5] });
  });

  t.test('one environment with seeds {0, 1}: replicate means 0, 1/2, 1 with probabilities 1/4, 1/2, 1/4', async (t) => {
    const reps = clusterReplicates([[0, 1]], { resamples: 2000 });
    t.ok(reps.every((x) => x === 0 || x === 0.5 || x === 1));
    const half = reps.filter((x) => x === 0.5).length / reps.length;
    t.ok(half > 0.45 && half < 0.55, `share of 1/2: ${half}`);
    t.same(estimate([[0, 1]])!.ci95, [0, 1]);
  });

  t.test('environments are the clusters: an always-0 and an always-1 environment give [0, 1]', async (t) => {
    const table = [Array(8).fill(0), Array(8).fill(1)];
    const reps = clusterReplicates(table);
    t.ok(reps.every((x) => x === 0 || x === 0.5 || x === 1), 'only whole environments move the mean');
    t.same(estimate(table), { mean: 0.5, ci95: [0, 1] });
  });

  t.test('paired differences are a − b cell by cell', async (t) => {
    const a = [[0.25, 0.5, 1], [0, 0.75, 0.5]];
    const b = a.map((row) => row.map((x) => x + 0.25));
    const d = pairedDifference(a, b)!;
    t.ok(close(d.mean, -0.25) && close(d.ci95[0], -0.25) && close(d.ci95[1], -0.25), JSON.stringify(d));
    t.same(pairedDifference([[1, 1], [0, 0]], [[0, 0], [0, 0]]), { mean: 0.5, ci95: [0, 1] });
  });

  t.test('seeded: the same seed gives the same replicates, another seed others', async (t) => {
    const table = [[0, 1, 0, 1], [0.2, 0.4, 0.9, 0], [1, 1, 0, 0.5]];
    t.same(clusterReplicates(table, { seed: 7 }), clusterReplicates(table, { seed: 7 }));
    t.not(JSON.stringify(clusterReplicates(table, { seed: 7 })), JSON.stringify(clusterReplicates(table, { seed: 8 })));
  });

  t.test('bad tables are typed errors naming the row; an empty table has no estimate', async (t) => {
    t.equal(estimate([]), null);
    t.ok(failsWith(() => estimate([[1], []]), (e) => isEvalOptionsError(e) && e.field === 'table[1]'));
    t.ok(failsWith(() => estimate([[Number.NaN]]), (e) => isEvalOptionsError(e) && e.field === 'table[0]'));
    t.ok(failsWith(() => pairedDifference([[1, 2]], [[1]]), (e) => isEvalOptionsError(e) && e.field === 'paired tables'));
    t.ok(failsWith(() => estimate([[1]], { resamples: 0 }), (e) => isEvalOptionsError(e) && e.field === 'bootstrap.resamples'));
  });
});
