// results.json of an experiment, pure: the eval report of every final checkpoint (and the base), and per arm its runs'
// compute, learning curves and loop figures, with the headline seed-paired difference SPADE − fixed environments; the
// same comparisons on the near suite (eval.near) when it was played.
//
// Seed pairing: run seed i of SPADE is paired with run seed i of the fixed baseline; each pair's held-out tables
// (environments × eval seeds, the same episodes for both) are differenced cell by cell, and the pairs go through
// eval's three-level bootstrap (pairs of run seeds, then environments, then eval seeds), so the interval covers
// run-to-run noise as well as environment and episode noise; the point estimate is the plain mean of the pairs. An
// arm's held-out figure and its difference from the base resample the arm's runs the same way. Every such interval
// says which levels it resampled (`resampled`): with one run seed there is no run level, only the two-level bootstrap.
import { runEstimate, runPairedDifference, type BootstrapLevel, type CheckpointResult, type EvalReport } from '../eval/index.js';
import { tokenAgreement, type IterationFigures, type RunMetrics, type RunTokens } from './accounting.js';
import type { ArmName } from './arms.js';
import type { CurveCheckpoint, CurvePoint } from './curve.js';
import type { CachedEval } from './evaluate.js';
import { frontierResults, type FrontierResults, type FrontierUnits } from './frontier-results.js';
import type { ExperimentConfig } from './presets.js';

type Ci = [number, number] | null;
export interface Held { meanReturnNoHint: number | null; ci95NoHint: Ci; meanReturnHint: number | null; ci95Hint: Ci; resampled?: BootstrapLevel[] }

export interface RunInput {
  arm: ArmName;
  seed: number;
  runDir: string;
  finalCheckpoint: string;
  wallSec: number;
  metrics: RunMetrics;
  curve: CurveCheckpoint[];
  /** The final checkpoint's evaluation. */
  eval: CachedEval;
  /** The intermediate curve points' (no hint); null without any. */
  curveEval?: CachedEval | null;
  /** The final checkpoint's evaluation on the near suite (eval.near); null without one. */
  nearEval?: CachedEval | null;
  /** What the frontier figures need from the run's archive (readFrontierUnits); absent for an arm that does not design. */
  frontier?: FrontierUnits | null;
}

export interface RunResult {
  seed: number;
  runDir: string;
  finalCheckpoint: string;
  tokens: RunTokens;
  /** Agent episodes the run played, hinted included (the unit of an episode budget). */
  agentEpisodes: number;
  wallSec: number;
  iterationsDone: number;
  heldout: Held;
  curve: CurvePoint[];
  regret: RunMetrics['regret'];
  acceptance: number | null;
  meanDesignerReward: number | null;
  novelFraction: number | null;
  newStructureFraction: number | null;
  grounding: RunMetrics['grounding'];
  iterations: IterationFigures[];
}

export interface ArmResult {
  seeds: number;
  tokens: { mean: number; min: number; max: number };
  agentEpisodes: { mean: number; min: number; max: number };
  /** The agent's share of the policy tokens its runs sampled (the designer's is the rest); null before any. */
  agentShare: number | null;
  wallSec: { mean: number; total: number };
  /** Held-out return of the arm: the mean of its runs' tables, the three-level bootstrap (run seeds, environments, eval seeds). */
  heldout: Held;
  /** Mean over runs at each budget fraction. */
  curve: { fraction: number; tokens: number; meanReturnNoHint: number | null }[];
  regret: { feasibleMean: number | null; allMean: number | null };
  acceptance: number | null;
  meanDesignerReward: number | null;
  novelFraction: number | null;
  /** Of the accepted environments, those whose structure (strings and numbers masked) is new. */
  newStructureFraction: number | null;
  /** Mean document words of accepted environments over the arm's runs, and the control document's. */
  grounding: { docWords: number | null; controlWords: number | null };
  runs: RunResult[];
}

type Diff = { mean: number; ci95: [number, number]; resampled: BootstrapLevel[] };

/** The second suite's figures (eval.near): the base and every arm's final checkpoints, the same comparisons. */
export interface NearResults {
  suite: string;
  seeds: number;
  environments: number;
  base: Held;
  arms: Partial<Record<ArmName, Held & { minusBase: Diff | null }>>;
  spadeMinusFixed: (Diff & { pairs: number }) | null;
}

export interface ExperimentResults {
  experiment: { preset: string; budgetTokens: number; budgetEpisodes: number; arms: ArmName[]; seeds: Record<string, number>; baseCheckpoint: string; curvePoints: number; set: Record<string, unknown>; eval: ExperimentConfig['eval'] };
  /** Every final checkpoint's eval result (and the base's), one report per arm run as `spade eval --json` writes it. */
  eval: { base: EvalReport; runs: Record<string, EvalReport>; curves: Record<string, EvalReport>; near: { base: EvalReport; runs: Record<string, EvalReport> } | null };
  base: CheckpointResult;
  arms: Partial<Record<ArmName, ArmResult>>;
  /** How closely the runs spent the same budget: totals and agreement in the budget's unit, both units listed. */
  accounting: { unit: 'tokens' | 'episodes'; totals: Record<string, number>; episodes: Record<string, number>; spread: number; maxOverMin: number; within5Percent: boolean };
  heldout: { spadeMinusFixed: (Diff & { pairs: number }) | null; minusBase: Partial<Record<ArmName, Diff | null>> };
  /** The SPADE arm's (null without it). */
  novelFraction: number | null;
  newStructureFraction: number | null;
  regret: { feasibleMean: number | null; allMean: number | null };
  /** The near suite's figures (null when eval.near is null or was not played). */
  near: NearResults | null;
  /** The designer's work on the frontier, per designing arm: each run's figures and the runs pooled. */
  frontier: FrontierResults;
}

type Table = number[][];

/** Pooled over runs, weighted by each run's scored environments. */
function groundingOf(gs: readonly RunMetrics['grounding'][]): ArmResult['grounding'] {
  const n = gs.reduce((a, g) => a + g.scored, 0);
  const sum = (k: 'meanDocWords' | 'meanControlWords'): number => gs.reduce((a, g) => a + (g[k] ?? 0) * g.scored, 0);
  return n > 0 ? { docWords: sum('meanDocWords') / n, controlWords: sum('meanControlWords') / n } : { docWords: null, controlWords: null };
}
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const spreadOf = (xs: readonly number[]) => ({ mean: mean(xs), min: Math.min(...xs), max: Math.max(...xs) });
const meanOrNull = (xs: readonly (number | null)[]): number | null => {
  const ok = xs.filter((x): x is number => x !== null);
  return ok.length ? mean(ok) : null;
};

/** The no-hint (or hint) table of one checkpoint of a cached eval, over `keys`. */
function tableOf(e: CachedEval, checkpoint: string, keys: readonly string[], hint: boolean): Table | null {
  const r = e.returns.find((x) => x.checkpoint === checkpoint);
  if (!r) return null;
  const rows = keys.map((k) => (hint ? r.envs[k]?.hint : r.envs[k]?.noHint) ?? null);
  return rows.some((x) => x === null) ? null : (rows as Table);
}

/** Held-out figures of one run, or (`arm`) of an arm's runs with the levels its intervals resampled. */
function held(tablesNo: Table[], tablesHint: Table[], resamples: number, arm = false): Held {
  const n = tablesNo.length && tablesNo[0]!.length ? runEstimate(tablesNo, { resamples }) : null;
  const h = tablesHint.length && tablesHint[0]!.length ? runEstimate(tablesHint, { resamples }) : null;
  return { meanReturnNoHint: n?.mean ?? null, ci95NoHint: n?.ci95 ?? null, meanReturnHint: h?.mean ?? null, ci95Hint: h?.ci95 ?? null, ...(arm && n ? { resampled: n.resampled } : {}) };
}

/** An arm's runs − one table (the base), the arm's runs resampled. */
function minusBaseOf(tables: Table[], base: Table, resamples: number): Diff | null {
  const d = tables.length && base.length ? runPairedDifference(tables, [base], { resamples }) : null;
  return d ? { mean: d.mean, ci95: d.ci95, resampled: d.resampled } : null;
}

/** SPADE − fixed environments, seed-paired: run seed i of each arm differenced cell by cell, the pairs resampled. */
function spadeMinusFixedOf(runs: readonly RunInput[], table: (r: RunInput) => Table, resamples: number): (Diff & { pairs: number }) | null {
  const spade = runs.filter((r) => r.arm === 'spade').sort((a, b) => a.seed - b.seed);
  const fixed = runs.filter((r) => r.arm === 'fixed-envs').sort((a, b) => a.seed - b.seed);
  const pairs = Math.min(spade.length, fixed.length);
  if (pairs === 0) return null;
  const d = runPairedDifference(spade.slice(0, pairs).map(table), fixed.slice(0, pairs).map(table), { resamples });
  return d ? { mean: d.mean, ci95: d.ci95, resampled: d.resampled, pairs } : null;
}

/** The near suite's figures, over the environments the base and every run's final checkpoint played. */
function nearResults(c: ExperimentConfig, baseNear: CachedEval | null | undefined, baseCheckpoint: string, runs: readonly RunInput[]): NearResults | null {
  if (!c.eval.near || !baseNear || runs.some((r) => !r.nearEval)) return null;
  const resamples = c.eval.resamples;
  const keys = Object.keys(baseNear.report.results[0]!.envs).filter((k) => runs.every((r) => r.nearEval!.returns.every((x) => k in x.envs)));
  if (keys.length === 0) return null;
  const no = (r: RunInput) => tableOf(r.nearEval!, r.finalCheckpoint, keys, false)!;
  const hint = (r: RunInput) => tableOf(r.nearEval!, r.finalCheckpoint, keys, true)!;
  const baseNo = tableOf(baseNear, baseCheckpoint, keys, false)!;
  const arms: NearResults['arms'] = {};
  for (const arm of c.arms) {
    const rs = runs.filter((r) => r.arm === arm);
    if (rs.length === 0) continue;
    arms[arm] = { ...held(rs.map(no), c.eval.hint ? rs.map(hint) : [], resamples, true), minusBase: minusBaseOf(rs.map(no), baseNo, resamples) };
  }
  const baseHint = c.eval.hint ? tableOf(baseNear, baseCheckpoint, keys, true) : null;
  return {
    suite: c.eval.near.suite, seeds: c.eval.near.seeds, environments: keys.length,
    base: held([baseNo], baseHint ? [baseHint] : [], resamples), arms, spadeMinusFixed: spadeMinusFixedOf(runs, no, resamples),
  };
}

/** The agent's share of sampled tokens; null when nothing was sampled. */
const shareOf = (agent: number, designer: number): number | null => (agent + designer > 0 ? agent / (agent + designer) : null);

export function buildResults(c: ExperimentConfig, base: CachedEval, baseCheckpoint: string, runs: readonly RunInput[], baseNear?: CachedEval | null): ExperimentResults {
  const resamples = c.eval.resamples;
  // Environments every checkpoint played (validation is per call; a module that flaked invalid in one is left out).
  const keys = Object.keys(base.report.results[0]!.envs).filter((k) => runs.every((r) => r.eval.returns.every((x) => k in x.envs)));
  const finalNo = (r: RunInput) => tableOf(r.eval, r.finalCheckpoint, keys, false)!;
  const finalHint = (r: RunInput) => (c.eval.hint ? tableOf(r.eval, r.finalCheckpoint, keys, true) : null);
  const baseNo = tableOf(base, baseCheckpoint, keys, false)!;
  const arms: ExperimentResults['arms'] = {};
  const minusBase: ExperimentResults['heldout']['minusBase'] = {};
  for (const arm of c.arms) {
    const rs = runs.filter((r) => r.arm === arm).sort((a, b) => a.seed - b.seed);
    if (rs.length === 0) continue;
    const runResults = rs.map((r): RunResult => {
      return {
        seed: r.seed, runDir: r.runDir, finalCheckpoint: r.finalCheckpoint, tokens: r.metrics.tokens, agentEpisodes: r.metrics.agentEpisodes, wallSec: r.wallSec, iterationsDone: r.metrics.iterationsDone,
        heldout: held([finalNo(r)], c.eval.hint ? [finalHint(r)!] : [], resamples),
        curve: r.curve.map((p) => {
          const pr = [...r.eval.report.results, ...(r.curveEval?.report.results ?? [])].find((x) => x.checkpoint === p.checkpoint);
          return { fraction: p.fraction, tokens: p.tokens, meanReturnNoHint: pr?.meanReturnNoHint ?? null, ci95NoHint: pr?.ci95NoHint ?? null };
        }),
        regret: r.metrics.regret, acceptance: r.metrics.acceptance, meanDesignerReward: r.metrics.meanDesignerReward,
        novelFraction: r.metrics.novelty.novelFraction, newStructureFraction: r.metrics.novelty.newStructureFraction, grounding: r.metrics.grounding, iterations: r.metrics.iterations,
      };
    });
    const fractions = [...new Set(runResults.flatMap((r) => r.curve.map((p) => p.fraction)))].sort((a, b) => a - b);
    const totals = runResults.map((r) => r.tokens.total);
    const novel = rs.reduce((a, r) => a + r.metrics.novelty.novel, 0), scored = rs.reduce((a, r) => a + r.metrics.novelty.scored, 0);
    const shaped = rs.reduce((a, r) => a + (r.metrics.novelty.newStructure ?? 0), 0);
    arms[arm] = {
      seeds: rs.length,
      tokens: { mean: mean(totals), min: Math.min(...totals), max: Math.max(...totals) },
      agentEpisodes: spreadOf(runResults.map((r) => r.agentEpisodes)),
      agentShare: shareOf(rs.reduce((a, r) => a + r.metrics.tokens.sampledAgent, 0), rs.reduce((a, r) => a + r.metrics.tokens.sampledDesigner, 0)),
      wallSec: { mean: mean(runResults.map((r) => r.wallSec)), total: runResults.reduce((a, r) => a + r.wallSec, 0) },
      heldout: held(rs.map(finalNo), c.eval.hint ? rs.map((r) => finalHint(r)!) : [], resamples, true),
      curve: fractions.map((f) => {
        const pts = runResults.map((r) => r.curve.find((p) => p.fraction === f)).filter((p): p is CurvePoint => p !== undefined);
        return { fraction: f, tokens: mean(pts.map((p) => p.tokens)), meanReturnNoHint: meanOrNull(pts.map((p) => p.meanReturnNoHint)) };
      }),
      regret: { feasibleMean: meanOrNull(runResults.map((r) => r.regret.feasibleMean)), allMean: meanOrNull(runResults.map((r) => r.regret.allMean)) },
      acceptance: meanOrNull(runResults.map((r) => r.acceptance)),
      meanDesignerReward: meanOrNull(runResults.map((r) => r.meanDesignerReward)),
      novelFraction: scored > 0 ? novel / scored : null,
      newStructureFraction: scored > 0 ? shaped / scored : null,
      grounding: groundingOf(rs.map((r) => r.metrics.grounding)),
      runs: runResults,
    };
    minusBase[arm] = keys.length ? minusBaseOf(rs.map(finalNo), baseNo, resamples) : null;
  }
  const spadeMinusFixed = keys.length > 0 ? spadeMinusFixedOf(runs, finalNo, resamples) : null;
  const near = nearResults(c, baseNear, baseCheckpoint, runs);
  const totals = Object.fromEntries(runs.map((r) => [`${r.arm}-s${r.seed}`, r.metrics.tokens.total]));
  const episodes = Object.fromEntries(runs.map((r) => [`${r.arm}-s${r.seed}`, r.metrics.agentEpisodes]));
  const unit = (c.budgetEpisodes ?? 0) > 0 ? 'episodes' : 'tokens';
  const agree = tokenAgreement(Object.values(unit === 'episodes' ? episodes : totals));
  return {
    experiment: {
      preset: c.preset, budgetTokens: c.budgetTokens, budgetEpisodes: c.budgetEpisodes ?? 0, arms: c.arms, seeds: Object.fromEntries(c.arms.map((a) => [a, arms[a]?.seeds ?? 0])),
      baseCheckpoint: c.baseCheckpoint, curvePoints: c.curvePoints, set: c.set, eval: c.eval,
    },
    eval: { base: base.report, runs: Object.fromEntries(runs.map((r) => [`${r.arm}-s${r.seed}`, r.eval.report])), curves: Object.fromEntries(runs.filter((r) => r.curveEval).map((r) => [`${r.arm}-s${r.seed}`, r.curveEval!.report])),
      near: near && baseNear ? { base: baseNear.report, runs: Object.fromEntries(runs.map((r) => [`${r.arm}-s${r.seed}`, r.nearEval!.report])) } : null,
    },
    base: base.report.results[0]!,
    arms,
    accounting: { unit, totals, episodes, spread: agree.spread, maxOverMin: agree.maxOverMin, within5Percent: agree.spread <= 0.05 },
    heldout: { spadeMinusFixed, minusBase },
    novelFraction: arms.spade?.novelFraction ?? null,
    newStructureFraction: arms.spade?.newStructureFraction ?? null,
    regret: { feasibleMean: arms.spade?.regret.feasibleMean ?? null, allMean: arms.spade?.regret.allMean ?? null },
    near,
    frontier: frontierResults(c.arms, runs, resamples),
  };
}
