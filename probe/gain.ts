// What the probe reports: the change of the no-hint return between the start and end weights, played on the same
// fresh seeds of the same modules. The modules are fixed (the question is "on these five", not "on modules like
// these"), so the interval resamples seeds within each module, paired (one seed's before and after go together),
// and averages modules with equal weight: a stratified bootstrap. Pure; seeded.
import { makeRandom } from '../sandbox/index.js';
import { quantile } from '../eval/index.js';
import { mean } from '../actors/evaluator/index.js';
import { ProbeOptionsError } from './errors.js';

export interface GainEstimate {
  mean: number;
  ci95: [number, number];
}

export interface ModuleGain {
  before: number;
  after: number;
  gainNoHint: GainEstimate;
}

export interface Gain {
  before: number;
  after: number;
  gainNoHint: GainEstimate;
  perModule: Record<string, ModuleGain>;
}

/** Replicate means of per-seed differences, resampling seeds within each row; rows weigh the same. */
function replicates(diffs: readonly (readonly number[])[], resamples: number, seed: number): number[] {
  const random = makeRandom(seed);
  const out = new Array<number>(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (const row of diffs) {
      let s = 0;
      for (let j = 0; j < row.length; j++) s += row[Math.floor(random() * row.length)]!;
      sum += s / row.length;
    }
    out[b] = sum / diffs.length;
  }
  return out.sort((x, y) => x - y);
}

function interval(diffs: readonly (readonly number[])[], resamples: number, seed: number): GainEstimate {
  const reps = replicates(diffs, resamples, seed);
  return { mean: mean(diffs.map(mean)), ci95: [quantile(reps, 0.025), quantile(reps, 0.975)] };
}

/** before[m] and after[m]: module m's no-hint returns on the same seeds, in the same order. */
export function probeGain(before: Record<string, readonly number[]>, after: Record<string, readonly number[]>, resamples = 2000, seed = 12345): Gain {
  const names = Object.keys(before);
  if (names.length === 0) throw new ProbeOptionsError('before', 'returns of at least one module', before);
  const diffs = names.map((m) => {
    const b = before[m]!, a = after[m];
    if (!a || a.length !== b.length || b.length === 0) throw new ProbeOptionsError(`after.${m}`, `${b.length} returns, paired with before's seeds`, a?.length);
    return a.map((x, j) => x - b[j]!);
  });
  const perModule: Record<string, ModuleGain> = {};
  names.forEach((m, i) => {
    perModule[m] = { before: mean(before[m]!), after: mean(after[m]!), gainNoHint: interval([diffs[i]!], resamples, seed + i + 1) };
  });
  return {
    before: mean(names.map((m) => perModule[m]!.before)), after: mean(names.map((m) => perModule[m]!.after)),
    gainNoHint: interval(diffs, resamples, seed), perModule,
  };
}
