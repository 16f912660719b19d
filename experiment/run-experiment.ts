// `spade experiment` apart from its command line: evaluates the base checkpoint once, runs every arm × run seed one
// after another (run-arm.ts: each a child `spade start` in its own run directory, skipped when finished, resumed
// when interrupted), evaluates each run's curve snapshots and final checkpoint, and writes results.json and
// summary.md. Everything it computes is cached in the experiment directory, so running it again continues it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readRunMetrics } from './accounting.js';
import type { ArmName } from './arms.js';
import { curveCheckpoints } from './curve.js';
import { OptionsError } from './errors.js';
import { evaluateCached, prepareSuite } from './evaluate.js';
import { armDesigns, readFrontierUnits } from './frontier-results.js';
import { budgetWords, seedsOf, type ExperimentConfig } from './presets.js';
import { buildResults, type ExperimentResults, type RunInput } from './results.js';
import { runArm, type RunArmOptions } from './run-arm.js';
import { formatSummary } from './summary.js';
import { etaSeconds, progressBar } from '../runtime/progress.js';

export interface ExperimentRunOptions extends Omit<RunArmOptions, 'onSpawn'> {
  outDir: string;
  /** Called with each arm run's child pid (tests interrupt one). */
  onSpawn?: (arm: ArmName, seed: number, pid: number) => void;
}

/** The fields a continued experiment must share with the one it continues (arms and seeds may be added or left out). */
const FIXED = ['budgetTokens', 'budgetEpisodes', 'baseCheckpoint', 'curvePoints', 'set', 'eval'] as const;

/** Saves the configuration in `outDir/experiment.json`, or checks it against the saved one. */
export function pinConfig(c: ExperimentConfig, outDir: string): void {
  const file = join(outDir, 'experiment.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as ExperimentConfig;
    for (const k of FIXED)
      if (JSON.stringify(saved[k]) !== JSON.stringify(c[k]))
        throw new OptionsError(`experiment.${k}`, `${JSON.stringify(saved[k])}, as when ${outDir} was started (experiment.json; use another --out for a new experiment)`, c[k]);
  }
  writeFileSync(file, `${JSON.stringify(c, null, 2)}\n`);
}

export async function runExperiment(c: ExperimentConfig, o: ExperimentRunOptions): Promise<ExperimentResults> {
  const outDir = resolve(o.outDir);
  const log = o.log ?? (() => undefined);
  mkdirSync(outDir, { recursive: true });
  pinConfig(c, outDir);
  const suite = prepareSuite(c, outDir);
  const baseCheckpoint = resolve(c.baseCheckpoint);
  log(`experiment ${outDir}: arms ${c.arms.map((a) => `${a}×${seedsOf(c, a)}`).join(', ')}, budget ${budgetWords(c)} each`);
  const base = await evaluateCached(c, suite, [baseCheckpoint], join(outDir, 'base-eval.json'), { hint: c.eval.hint, log });
  // The near tier: the base and the final checkpoints only, on its own seed count.
  const near = c.eval.near ? { suite: resolve(c.eval.near.suite), seeds: c.eval.near.seeds } : null;
  const nearOf = (ck: string, file: string) => (near ? evaluateCached(c, near.suite, [ck], file, { hint: c.eval.hint, seeds: near.seeds, log }) : Promise.resolve(null));
  const baseNear = await nearOf(baseCheckpoint, join(outDir, 'base-eval-near.json'));
  const runs: RunInput[] = [];
  const maxSeeds = Math.max(...c.arms.map((a) => seedsOf(c, a)));
  // Progress over the arm runs (each with its evaluation); the pace so far gives the time left.
  const total = c.arms.reduce((a, arm) => a + seedsOf(c, arm), 0);
  const started = Date.now();
  let finished = 0;
  // Seed-major: the first seed of every arm before the second of any, so a cut-short experiment still pairs arms.
  for (let seed = 1; seed <= maxSeeds; seed++)
    for (const arm of c.arms) {
      if (seed > seedsOf(c, arm)) continue;
      const rec = await runArm(c, arm, seed, outDir, { ...o, onSpawn: (pid) => o.onSpawn?.(arm, seed, pid) });
      const metrics = readRunMetrics(rec.runDir);
      const curve = curveCheckpoints(rec.runDir, metrics, rec.finalCheckpoint);
      // A designing arm's archive, read now: a malformed one stops the experiment naming the file and line.
      const frontier = armDesigns(arm) ? readFrontierUnits(rec.runDir) : null;
      log(`${arm} seed ${seed}: ${metrics.agentEpisodes} agent episodes, ${metrics.tokens.total} policy tokens in ${(rec.wallSec / 60).toFixed(1)} min; evaluating ${curve.length} checkpoint(s)`);
      // The final checkpoint with the hinted arm too; the curve's intermediate points without (the curve is no-hint return).
      const ev = await evaluateCached(c, suite, [rec.finalCheckpoint], join(rec.runDir, 'eval.json'), { hint: c.eval.hint, log });
      const mid = curve.slice(0, -1).map((p) => p.checkpoint);
      const curveEval = mid.length ? await evaluateCached(c, suite, mid, join(rec.runDir, 'eval-curve.json'), { hint: false, log }) : null;
      const nearEval = await nearOf(rec.finalCheckpoint, join(rec.runDir, 'eval-near.json'));
      runs.push({ arm, seed, runDir: rec.runDir, finalCheckpoint: rec.finalCheckpoint, wallSec: rec.wallSec, metrics, curve, eval: ev, curveEval, nearEval, frontier });
      finished++;
      log(`experiment ${progressBar(finished / total, `${total} arm runs`, etaSeconds(finished / total, (Date.now() - started) / 1000), 20)}`);
    }
  const results = buildResults(c, base, baseCheckpoint, runs, baseNear);
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'summary.md'), formatSummary(results));
  log(`experiment ${outDir}: results.json and summary.md written`);
  return results;
}

