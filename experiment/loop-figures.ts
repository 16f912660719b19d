// The figures issue 11 judges a self-play run by, read from its archive (envs/accepted.jsonl, envs/evaluated.jsonl,
// envs/rejected.jsonl) and metrics.jsonl. Pure over parsed lines; `readLoopFigures(runDir)` reads the files.
//   regret      mean regret over feasible evaluated environments, 95% bootstrap interval over environments
//   reward      the designer's mean reward per iteration, its least-squares slope and a 95% interval of the slope
//               (bootstrap over iterations)
//   validity    accepted / proposed designer samples; rejections by stage
//   novelty     novel share of accepted environments (eval/novelty.ts, as scored in the loop), families seen
//   grounding   document words an accepted module brings in that its parent lacks, against another document's
//               (the control); the paired difference with a 95% bootstrap interval over environments
//   frontier    no-hint return of accepted environments: the share in [0.2, 0.8], early and late in the run
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimate, quantile } from '../eval/index.js';
import { makeRandom } from '../sandbox/index.js';
import { RunReadError } from './errors.js';

type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface LoopFigures {
  proposed: number;
  accepted: number;
  validity: number | null;
  rejectedByStage: Record<string, number>;
  regret: { feasible: number; evaluated: number; mean: number | null; ci95: [number, number] | null };
  returns: { hint: number | null; noHint: number | null };
  reward: { iterations: number; first: number | null; last: number | null; slope: number | null; ci95: [number, number] | null };
  /** novel: the trigram measure; newStructure: the same with strings and numbers masked (eval/novelty.ts). */
  novelty: { scored: number; novel: number; novelFraction: number | null; newStructure: number; newStructureFraction: number | null; libraryCopies: number };
  families: Record<string, number>;
  grounding: { scored: number; docWords: number | null; controlWords: number | null; difference: number | null; ci95: [number, number] | null };
  frontier: { band: [number, number]; inBand: number | null; firstHalf: number | null; secondHalf: number | null };
}

const mean = (xs: readonly number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** Least-squares slope of y on x; null with fewer than two distinct x. */
export function slope(points: readonly { x: number; y: number }[]): number | null {
  const mx = mean(points.map((p) => p.x)), my = mean(points.map((p) => p.y));
  if (mx === null || my === null) return null;
  let sxy = 0, sxx = 0;
  for (const p of points) (sxy += (p.x - mx) * (p.y - my), sxx += (p.x - mx) ** 2);
  return sxx > 0 ? sxy / sxx : null;
}

/** The slope and a percentile-bootstrap interval over the points (resampled with replacement). */
export function slopeInterval(points: readonly { x: number; y: number }[], resamples = 2000, seed = 12345): { slope: number | null; ci95: [number, number] | null } {
  const s = slope(points);
  if (s === null) return { slope: null, ci95: null };
  const random = makeRandom(seed);
  const reps: number[] = [];
  for (let b = 0; b < resamples; b++) {
    const r = slope(points.map(() => points[Math.floor(random() * points.length)]!));
    if (r !== null) reps.push(r);
  }
  reps.sort((a, b) => a - b);
  return { slope: s, ci95: reps.length ? [quantile(reps, 0.025), quantile(reps, 0.975)] : null };
}

export function loopFigures(accepted: readonly Line[], evaluated: readonly Line[], rejected: readonly Line[], metrics: readonly Line[], band: [number, number] = [0.2, 0.8]): LoopFigures {
  const stages: Record<string, number> = {};
  for (const r of rejected) stages[r.stage ?? 'unknown'] = (stages[r.stage ?? 'unknown'] ?? 0) + 1;
  const feasible = evaluated.filter((e) => e.feasible === true && typeof e.regret === 'number');
  const regret = feasible.length ? estimate(feasible.map((e) => [e.regret as number])) : null;
  const iterations = new Map<number, number>();
  for (const l of metrics) {
    const it = l.event === 'iteration' ? l.iteration : null;
    if (it && typeof it.meanDesignerReward === 'number') iterations.set(it.index, it.meanDesignerReward);
  }
  const points = [...iterations].sort((a, b) => a[0] - b[0]).map(([x, y]) => ({ x, y }));
  const fit = slopeInterval(points);
  const families: Record<string, number> = {};
  for (const a of accepted) families[a.family ?? 'unknown'] = (families[a.family ?? 'unknown'] ?? 0) + 1;
  const scored = accepted.filter((a) => a.novelty);
  const byIteration = [...evaluated].sort((a, b) => a.iteration - b.iteration);
  // An environment whose unhinted episodes all failed to score has no returnNoHint (the evaluator leaves it out): it is
  // left out of the returns and the band share rather than turning them into NaN.
  const measured = (xs: readonly Line[]): Line[] => xs.filter((e) => Number.isFinite(e.returnNoHint));
  const share = (all: readonly Line[]): number | null => {
    const xs = measured(all);
    return xs.length ? xs.filter((e) => e.returnNoHint >= band[0] && e.returnNoHint <= band[1]).length / xs.length : null;
  };
  const half = Math.floor(byIteration.length / 2);
  const proposed = accepted.length + rejected.length;
  return {
    proposed, accepted: accepted.length, validity: proposed ? accepted.length / proposed : null, rejectedByStage: stages,
    regret: { feasible: feasible.length, evaluated: evaluated.length, mean: regret?.mean ?? null, ci95: regret?.ci95 ?? null },
    returns: { hint: mean(evaluated.map((e) => e.returnHint).filter(Number.isFinite)), noHint: mean(measured(evaluated).map((e) => e.returnNoHint)) },
    reward: { iterations: points.length, first: points[0]?.y ?? null, last: points.at(-1)?.y ?? null, slope: fit.slope, ci95: fit.ci95 },
    novelty: {
      scored: scored.length, novel: scored.filter((a) => a.novelty.novel).length,
      novelFraction: scored.length ? scored.filter((a) => a.novelty.novel).length / scored.length : null,
      newStructure: scored.filter((a) => a.novelty.newStructure).length,
      newStructureFraction: scored.length ? scored.filter((a) => a.novelty.newStructure).length / scored.length : null,
      libraryCopies: scored.filter((a) => a.novelty.libraryCopyOf).length,
    },
    families,
    grounding: groundingFigures(accepted),
    frontier: { band, inBand: share(byIteration), firstHalf: share(byIteration.slice(0, half)), secondHalf: share(byIteration.slice(half)) },
  };
}

function groundingFigures(accepted: readonly Line[]): LoopFigures['grounding'] {
  const g = accepted.filter((a) => a.grounding && typeof a.grounding.docWords === 'number' && typeof a.grounding.controlWords === 'number');
  const diff = g.length ? estimate(g.map((a) => [a.grounding.docWords - a.grounding.controlWords])) : null;
  return {
    scored: g.length, docWords: mean(g.map((a) => a.grounding.docWords)), controlWords: mean(g.map((a) => a.grounding.controlWords)),
    difference: diff?.mean ?? null, ci95: diff?.ci95 ?? null,
  };
}

function jsonl(file: string, runDir: string): Line[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l, i) => {
    try {
      return JSON.parse(l) as Line;
    } catch (err) {
      throw new RunReadError(`run ${runDir}: ${file} line ${i + 1} is not JSON`, runDir, err);
    }
  });
}

export function readLoopFigures(runDir: string): LoopFigures {
  if (!existsSync(join(runDir, 'metrics.jsonl'))) throw new RunReadError(`run ${runDir}: no metrics.jsonl`, runDir);
  const env = (kind: string): Line[] => jsonl(join(runDir, 'envs', `${kind}.jsonl`), runDir);
  return loopFigures(env('accepted'), env('evaluated'), env('rejected'), jsonl(join(runDir, 'metrics.jsonl'), runDir));
}
