// Statistics of an evaluation, pure: the mean return over an environments × seeds table and its 95% interval by a
// two-level (cluster) bootstrap, and the seed-paired difference of two checkpoints on the same table.
//
// Why two levels: the question is how a checkpoint does on environments like these, so environments are the units
// sampled (an environment's seeds are correlated: a solved one scores on most seeds). A flat bootstrap over all
// env×seed cells treats 30 × 16 episodes as 480 independent draws and gives intervals far too narrow. Each replicate
// draws E environments with replacement, then for each drawn environment its S seeds with replacement, and takes the
// mean; the interval is the 2.5th and 97.5th percentile of B replicates (linear interpolation between order
// statistics). The generator is seeded, so a report is reproducible.
import { makeRandom } from '../sandbox/index.js';
import { EvalOptionsError } from './errors.js';

/** rows = environments, columns = seeds (rows may differ in length; none may be empty). */
export type ReturnTable = readonly (readonly number[])[];

export interface BootstrapOptions {
  /** Replicates. */
  resamples?: number;
  /** Generator seed. */
  seed?: number;
  /** Two-sided coverage. */
  level?: number;
}

export const DEFAULT_BOOTSTRAP_OPTIONS: Required<BootstrapOptions> = { resamples: 2000, seed: 12345, level: 0.95 };

export interface Estimate {
  mean: number;
  ci95: [number, number];
}

export function checkTable(table: ReturnTable, o: Required<BootstrapOptions>): void {
  if (!Number.isInteger(o.resamples) || o.resamples < 1) throw new EvalOptionsError('bootstrap.resamples', 'a positive integer', o.resamples);
  if (!(o.level > 0 && o.level < 1)) throw new EvalOptionsError('bootstrap.level', 'a number in (0, 1)', o.level);
  table.forEach((row, i) => {
    if (row.length === 0) throw new EvalOptionsError(`table[${i}]`, 'a non-empty row of returns', row);
    if (row.some((x) => !Number.isFinite(x))) throw new EvalOptionsError(`table[${i}]`, 'finite returns', row);
  });
}

const rowMean = (row: readonly number[]): number => row.reduce((a, b) => a + b, 0) / row.length;

/** Mean over environments of each environment's mean over its seeds (every environment weighs the same). */
export function tableMean(table: ReturnTable): number {
  return table.reduce((a, row) => a + rowMean(row), 0) / table.length;
}

/** The p-quantile of sorted values, linear between order statistics (R's type 7). */
export function quantile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Replicate means of the two-level bootstrap, sorted. */
export function clusterReplicates(table: ReturnTable, options: BootstrapOptions = {}): number[] {
  const o = { ...DEFAULT_BOOTSTRAP_OPTIONS, ...options };
  checkTable(table, o);
  const random = makeRandom(o.seed);
  const out = new Array<number>(o.resamples);
  for (let b = 0; b < o.resamples; b++) out[b] = clusterMean(table, random);
  return out.sort((x, y) => x - y);
}

/** One replicate of the two-level bootstrap: E environments drawn with replacement, then each one's seeds. */
export function clusterMean(table: ReturnTable, random: () => number): number {
  const E = table.length;
  let sum = 0;
  for (let e = 0; e < E; e++) {
    const row = table[Math.floor(random() * E)]!;
    let s = 0;
    for (let j = 0; j < row.length; j++) s += row[Math.floor(random() * row.length)]!;
    sum += s / row.length;
  }
  return sum / E;
}

/** The table's mean and its two-level bootstrap interval; null for an empty table (nothing valid to average). */
export function estimate(table: ReturnTable, options: BootstrapOptions = {}): Estimate | null {
  if (table.length === 0) return null;
  const level = options.level ?? DEFAULT_BOOTSTRAP_OPTIONS.level;
  const reps = clusterReplicates(table, options);
  return { mean: tableMean(table), ci95: [quantile(reps, (1 - level) / 2), quantile(reps, 1 - (1 - level) / 2)] };
}

/**
 * a − b on the same environments and seeds: the cell-by-cell differences go through the same two-level bootstrap,
 * so each replicate resamples an environment and a seed for both checkpoints at once (the pairing removes the
 * between-environment variance the two share).
 */
export function pairedDifference(a: ReturnTable, b: ReturnTable, options: BootstrapOptions = {}): Estimate | null {
  if (a.length !== b.length || a.some((row, i) => row.length !== b[i]!.length))
    throw new EvalOptionsError('paired tables', 'the same environments × seeds for both checkpoints', `${a.length} and ${b.length} rows`);
  return estimate(a.map((row, i) => row.map((x, j) => x - b[i]![j]!)), options);
}
