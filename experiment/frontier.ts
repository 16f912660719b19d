// Does the designer work the agent's frontier? Figures of one designing run, and of an arm's runs pooled, from what
// its archive holds (run-archive.ts, reduced to FrontierUnits by frontier-results.ts). Pure.
//   regret  mean regret over feasible evaluated designs, 95% interval
//   reward  the designer's mean reward per iteration against run progress (0 at the first iteration, 1 at the last):
//           the least-squares slope, i.e. the fitted change over the run, 95% interval
//   band    the share of evaluated designs whose no-hint return lies in [0.2, 0.8], first half of the run against the
//           second (by iteration: up to the midpoint of the first and last evaluated iterations, then after it), the
//           difference second − first and its 95% interval
//   knobs   knob-drift.ts's histograms
// Intervals are percentile bootstraps, seeded: one run's resample its units (environments, or iterations for the
// slope; the band's within each half); pooled ones resample the runs, then the units within each drawn run, so
// run-to-run noise is in them. A pooled point estimate is the mean of the runs' figures (every run weighs the same).
import { DEFAULT_BOOTSTRAP_OPTIONS, quantile, type BootstrapOptions } from '../eval/index.js';
import { makeRandom } from '../sandbox/index.js';
import { mergeKnobDrift, type KnobDrift } from './knob-drift.js';
import { slope } from './loop-figures.js';

type Ci = [number, number] | null;
export type FrontierLevel = 'runSeeds' | 'environments' | 'iterations';

/** What the figures need from one run's archive. */
export interface FrontierUnits {
  /** Regret of each feasible evaluated design that has one. */
  regrets: number[];
  /** Evaluated designs, feasible or not. */
  evaluated: number;
  /** The designer's mean reward of each iteration that has one. */
  rewards: { iteration: number; reward: number }[];
  /** The no-hint return of each evaluated design that has one, with its iteration. */
  returns: { iteration: number; returnNoHint: number }[];
  knobs: KnobDrift;
  replays: number;
}

export interface Figure { mean: number | null; ci95: Ci; resampled: FrontierLevel[] }

export interface FrontierFigures {
  regret: Figure & { feasible: number; evaluated: number };
  reward: { iterations: number; slope: number | null; ci95: Ci; resampled: FrontierLevel[] };
  band: {
    band: [number, number];
    firstHalf: { environments: number; share: number | null };
    secondHalf: { environments: number; share: number | null };
    difference: number | null; ci95: Ci; resampled: FrontierLevel[];
  };
  knobs: KnobDrift;
  replays: number;
}

export const FRONTIER_BAND: [number, number] = [0.2, 0.8];

const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** Units drawn with replacement within each stratum (as many as the stratum holds). */
function resample<T>(strata: readonly (readonly T[])[], random: () => number): T[] {
  return strata.flatMap((s) => s.map(() => s[Math.floor(random() * s.length)]!));
}

/**
 * A statistic over runs of units: the mean of the runs' statistics (runs whose statistic is null left out) and its
 * interval, resampling the runs (when more than one) and then each drawn run's units within its strata.
 */
export function pooledStatistic<T>(runs: readonly (readonly T[])[], stat: (units: readonly T[]) => number | null, stratum: (u: T) => number = () => 0, options: BootstrapOptions = {}): { mean: number | null; ci95: Ci } {
  const o = { ...DEFAULT_BOOTSTRAP_OPTIONS, ...options };
  const usable = runs.filter((r) => stat(r) !== null);
  const point = mean(usable.map((r) => stat(r)!));
  if (point === null) return { mean: null, ci95: null };
  const strata = usable.map((r) => {
    const by = new Map<number, T[]>();
    for (const u of r) {
      const k = stratum(u);
      if (!by.has(k)) by.set(k, []);
      by.get(k)!.push(u);
    }
    return [...by.values()];
  });
  const random = makeRandom(o.seed);
  const R = usable.length;
  const reps: number[] = [];
  for (let b = 0; b < o.resamples; b++) {
    const drawn = R === 1 ? strata : strata.map(() => strata[Math.floor(random() * R)]!);
    const m = mean(drawn.map((s) => stat(resample(s, random))).filter((x): x is number => x !== null));
    if (m !== null) reps.push(m);
  }
  reps.sort((a, b) => a - b);
  const level = o.level;
  return { mean: point, ci95: reps.length ? [quantile(reps, (1 - level) / 2), quantile(reps, 1 - (1 - level) / 2)] : null };
}

/** Rewards against run progress in [0, 1] (a run with one iteration has none). */
function progress(rewards: FrontierUnits['rewards']): { x: number; y: number }[] {
  if (rewards.length < 2) return [];
  const first = Math.min(...rewards.map((r) => r.iteration)), last = Math.max(...rewards.map((r) => r.iteration));
  return last > first ? rewards.map((r) => ({ x: (r.iteration - first) / (last - first), y: r.reward })) : [];
}

/** Each evaluated design's half (0 first, 1 second) and whether its return is in the band. */
function halves(returns: FrontierUnits['returns'], band: [number, number]): { half: number; inBand: number }[] {
  if (returns.length === 0) return [];
  const mid = (Math.min(...returns.map((r) => r.iteration)) + Math.max(...returns.map((r) => r.iteration))) / 2;
  return returns.map((r) => ({ half: r.iteration <= mid ? 0 : 1, inBand: r.returnNoHint >= band[0] && r.returnNoHint <= band[1] ? 1 : 0 }));
}

const shareOf = (us: readonly { half: number; inBand: number }[], half: number): number | null => mean(us.filter((u) => u.half === half).map((u) => u.inBand));
const bandShift = (us: readonly { half: number; inBand: number }[]): number | null => {
  const a = shareOf(us, 0), b = shareOf(us, 1);
  return a === null || b === null ? null : b - a;
};

/** The figures of one run (`units` of one element) or of several pooled. */
export function frontierFigures(units: readonly FrontierUnits[], options: BootstrapOptions = {}, band: [number, number] = FRONTIER_BAND): FrontierFigures {
  const runLevel: FrontierLevel[] = units.length > 1 ? ['runSeeds'] : [];
  const regret = pooledStatistic(units.map((u) => u.regrets), mean, undefined, options);
  const reward = pooledStatistic(units.map((u) => progress(u.rewards)), slope, undefined, options);
  const hs = units.map((u) => halves(u.returns, band));
  const shift = pooledStatistic(hs, bandShift, (u) => u.half, options);
  const half = (h: number) => ({
    environments: hs.reduce((a, us) => a + us.filter((u) => u.half === h).length, 0),
    share: mean(hs.map((us) => shareOf(us, h)).filter((x): x is number => x !== null)),
  });
  return {
    regret: { ...regret, resampled: [...runLevel, 'environments'], feasible: units.reduce((a, u) => a + u.regrets.length, 0), evaluated: units.reduce((a, u) => a + u.evaluated, 0) },
    reward: { iterations: units.reduce((a, u) => a + u.rewards.length, 0), slope: reward.mean, ci95: reward.ci95, resampled: [...runLevel, 'iterations'] },
    band: { band, firstHalf: half(0), secondHalf: half(1), difference: shift.mean, ci95: shift.ci95, resampled: [...runLevel, 'environments'] },
    knobs: mergeKnobDrift(units.map((u) => u.knobs)),
    replays: units.reduce((a, u) => a + u.replays, 0),
  };
}
