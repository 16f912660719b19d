// Held-out evaluation of an experiment's checkpoints with `spade eval`'s code (eval/run-eval.ts): the base checkpoint
// once, and for each arm run its final checkpoint (both arms of the hint) and its learning-curve snapshots (no hint),
// all on the same seeds, so every comparison is seed-paired. Each result is cached as JSON beside what it measured, so a
// resumed experiment does not play it again.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { runEval, type EvalRun } from '../eval/index.js';
import { OptionsError } from './errors.js';
import type { ExperimentConfig } from './presets.js';

export type CachedEval = Pick<EvalRun, 'report' | 'returns' | 'timing'>;

/** The suite directory the experiment evaluates on: the configured suite, or a copy holding only `eval.files`. */
export function prepareSuite(c: ExperimentConfig, outDir: string): string {
  if (c.eval.files.length === 0) return resolve(c.eval.suite);
  const dir = join(outDir, 'suite');
  rmSync(dir, { recursive: true, force: true });
  for (const f of c.eval.files) {
    const src = resolve(c.eval.suite, f);
    if (!existsSync(src)) throw new OptionsError('experiment.eval.files', `modules of ${c.eval.suite}`, f);
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(src, join(dir, f));
  }
  return dir;
}

/** Plays `checkpoints` on the suite (hint both arms unless `noHint`; `seeds` overrides eval.seeds), or reads the cached result in `file`. */
export async function evaluateCached(c: ExperimentConfig, suite: string, checkpoints: string[], file: string, opts: { hint: boolean; seeds?: number; log?: (l: string) => void }): Promise<CachedEval> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as CachedEval;
  const log = opts.log ?? (() => undefined);
  let last = 0;
  const r = await runEval({
    checkpoints, suite, seeds: opts.seeds ?? c.eval.seeds, firstSeed: c.eval.firstSeed, hint: opts.hint, resamples: c.eval.resamples,
    loop: { designer: { validationSeeds: c.eval.validationSeeds } }, log,
    onProgress: (ck, p) => {
      if (p.episodes < p.total && p.seconds - last < 10) return;
      last = p.episodes < p.total ? p.seconds : 0;
      log(`eval ${ck}: ${p.episodes}/${p.total} episodes`);
    },
  });
  const cached: CachedEval = { report: r.report, returns: r.returns, timing: r.timing };
  writeFileSync(file, `${JSON.stringify(cached)}\n`);
  return cached;
}
