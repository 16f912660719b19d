// The three-level (hierarchical) bootstrap over run seeds: one environments × eval-seeds table per run seed, every
// table the same environments and seeds. The two-level bootstrap of bootstrap.ts covers environment and episode
// noise; a training run is itself a draw (another run seed learns something else), so comparing arms needs the runs
// resampled too, or two lucky runs read as a sure difference.
//
// Each replicate draws R run seeds with replacement, averages their tables cell by cell, then draws environments and
// seeds within each environment from that average as clusterMean does (the same environments and seeds for every
// drawn run: the design is crossed, every run plays the same episodes). A level with one unit has nothing to resample
// and draws nothing, so with one run seed the replicates are the two-level bootstrap's, number for number.
import { makeRandom } from '../sandbox/index.js';
import { DEFAULT_BOOTSTRAP_OPTIONS, checkTable, clusterMean, quantile, tableMean, type BootstrapOptions, type Estimate, type ReturnTable } from './bootstrap.js';
import { EvalOptionsError } from './errors.js';

/** The levels an interval resamples, outermost first (results.json states them beside each interval). */
export type BootstrapLevel = 'runSeeds' | 'environments' | 'evalSeeds';

export interface RunEstimate extends Estimate {
  /** How many run seeds (or pairs of them) the estimate averages. */
  runs: number;
  resampled: BootstrapLevel[];
}

function checkRuns(runs: readonly ReturnTable[], field: string): void {
  const first = runs[0]!;
  runs.forEach((t, r) => {
    if (t.length !== first.length || t.some((row, i) => row.length !== first[i]!.length))
      throw new EvalOptionsError(`${field}[${r}]`, `the same environments × seeds as ${field}[0]`, `${t.length} rows`);
  });
}

/** Cell-by-cell mean of tables of the same shape. */
export function averageTables(tables: readonly ReturnTable[]): number[][] {
  return tables[0]!.map((row, i) => row.map((_, j) => tables.reduce((a, t) => a + t[i]![j]!, 0) / tables.length));
}

/** Replicate means of the three-level bootstrap, sorted. */
export function runReplicates(runs: readonly ReturnTable[], options: BootstrapOptions = {}): number[] {
  const o = { ...DEFAULT_BOOTSTRAP_OPTIONS, ...options };
  checkRuns(runs, 'runs');
  runs.forEach((t) => checkTable(t, o));
  const random = makeRandom(o.seed);
  const R = runs.length;
  const out = new Array<number>(o.resamples);
  for (let b = 0; b < o.resamples; b++) {
    const drawn = R === 1 ? runs : runs.map(() => runs[Math.floor(random() * R)]!);
    out[b] = clusterMean(R === 1 ? runs[0]! : averageTables(drawn), random);
  }
  return out.sort((x, y) => x - y);
}

/** The runs' mean (the plain mean of the averaged table) and its three-level interval; null without a run or an environment. */
export function runEstimate(runs: readonly ReturnTable[], options: BootstrapOptions = {}): RunEstimate | null {
  if (runs.length === 0 || runs[0]!.length === 0) return null;
  const level = options.level ?? DEFAULT_BOOTSTRAP_OPTIONS.level;
  const reps = runReplicates(runs, options);
  const resampled: BootstrapLevel[] = runs.length > 1 ? ['runSeeds', 'environments', 'evalSeeds'] : ['environments', 'evalSeeds'];
  return { mean: tableMean(averageTables(runs)), ci95: [quantile(reps, (1 - level) / 2), quantile(reps, 1 - (1 - level) / 2)], runs: runs.length, resampled };
}

/**
 * a − b over paired run seeds (a[i] with b[i]; a single b stands for every pair, as the base checkpoint does for an
 * arm): each pair's tables are differenced cell by cell, and the pairs are the run level the bootstrap resamples.
 */
export function runPairedDifference(a: readonly ReturnTable[], b: readonly ReturnTable[], options: BootstrapOptions = {}): RunEstimate | null {
  if (b.length !== 1 && b.length !== a.length) throw new EvalOptionsError('paired runs', 'as many runs of b as of a, or one', `${a.length} and ${b.length}`);
  if (a.length === 0) return null;
  checkRuns([...a, ...b], 'paired runs');
  return runEstimate(a.map((t, r) => t.map((row, i) => row.map((x, j) => x - (b.length === 1 ? b[0]! : b[r]!)[i]![j]!))), options);
}
