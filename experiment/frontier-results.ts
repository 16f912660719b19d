// results.json `frontier`: for every arm that designs, each run's frontier figures and its runs' pooled, read from
// the run directories (readFrontierUnits, called by run-experiment.ts once a run is finished) and computed in
// buildResults (frontierResults, pure).
import { loadLibraryEnvs } from '../actors/designer/index.js';
import { ARMS, type ArmName } from './arms.js';
import { frontierFigures, type FrontierFigures, type FrontierUnits } from './frontier.js';
import { KNOB_FAMILIES, knobDrift } from './knob-drift.js';
import { readRunArchive } from './run-archive.js';

export type { FrontierUnits } from './frontier.js';

export type FrontierResults = Partial<Record<ArmName, { runs: (FrontierFigures & { seed: number; runDir: string })[]; pooled: FrontierFigures & { runs: number } }>>;

/** An arm designs unless it plays the fixed library (its "accepted" environments are library picks, not designs). */
export const armDesigns = (arm: ArmName): boolean => ARMS[arm].set['loop.ablations.fixedEnvs'] !== true;

/** What the frontier figures need from a finished run directory; `library` is the shipped library by default. */
export function readFrontierUnits(runDir: string, library: readonly { name: string; code: string }[] = loadLibraryEnvs()): FrontierUnits {
  const a = readRunArchive(runDir);
  return {
    regrets: a.evaluated.flatMap((e) => (e.feasible && e.regret !== null ? [e.regret] : [])),
    evaluated: a.evaluated.length,
    rewards: a.iterations.flatMap((it) => (it.meanDesignerReward === null ? [] : [{ iteration: it.index, reward: it.meanDesignerReward }])),
    returns: a.evaluated.flatMap((e) => (e.returnNoHint === null ? [] : [{ iteration: e.iteration, returnNoHint: e.returnNoHint }])),
    knobs: knobDrift(a.accepted, library.filter((l) => (KNOB_FAMILIES as readonly string[]).includes(l.name))),
    replays: a.replays,
  };
}

/** The figures of every designing arm's runs that carry frontier units, in seed order, and pooled. */
export function frontierResults(arms: readonly ArmName[], runs: readonly { arm: ArmName; seed: number; runDir: string; frontier?: FrontierUnits | null }[], resamples: number): FrontierResults {
  const out: FrontierResults = {};
  for (const arm of arms.filter(armDesigns)) {
    const rs = runs.filter((r) => r.arm === arm && r.frontier).sort((a, b) => a.seed - b.seed);
    if (rs.length === 0) continue;
    out[arm] = {
      runs: rs.map((r) => ({ seed: r.seed, runDir: r.runDir, ...frontierFigures([r.frontier!], { resamples }) })),
      pooled: { runs: rs.length, ...frontierFigures(rs.map((r) => r.frontier!), { resamples }) },
    };
  }
  return out;
}
