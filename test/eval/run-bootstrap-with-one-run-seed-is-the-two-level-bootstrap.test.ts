// The three-level bootstrap with a single run seed has no run level to resample: its estimate, interval and
// replicates are the two-level bootstrap's number for number (the same generator stream), and it says it resampled
// environments and eval seeds only. The paired form with one pair is eval's pairedDifference.
import t from 'tap';
import { clusterReplicates, estimate, pairedDifference, runEstimate, runPairedDifference, runReplicates } from '../../eval/index.js';

const a = [[1, 0, 1], [0, 0, 1], [1, 1, 1], [0, 0, 0]];
const b = [[0, 0, 1], [0, 1, 1], [1, 0, 1], [0, 0, 1]];

t.test('with one run seed the three-level bootstrap is the two-level one', async (t) => {
  for (const seed of [12345, 7]) {
    t.same(runReplicates([a], { resamples: 500, seed }), clusterReplicates(a, { resamples: 500, seed }), `replicates, seed ${seed}`);
    const r = runEstimate([a], { resamples: 500, seed })!;
    t.same({ mean: r.mean, ci95: r.ci95 }, estimate(a, { resamples: 500, seed }), `estimate, seed ${seed}`);
    t.same(r.resampled, ['environments', 'evalSeeds']);
    t.equal(r.runs, 1);
    const d = runPairedDifference([a], [b], { resamples: 500, seed })!;
    t.same({ mean: d.mean, ci95: d.ci95 }, pairedDifference(a, b, { resamples: 500, seed }), `paired difference, seed ${seed}`);
  }
  t.equal(runEstimate([]), null, 'no run: no estimate');
  t.equal(runEstimate([[]]), null, 'no environment: no estimate');
});
