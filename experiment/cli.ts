// `spade experiment --preset NAME | --config FILE [--out DIR] [--arms a,b] [--budget N] [--seeds N]`: runs the arms
// at equal policy-token compute and evaluates them (run-experiment.ts). Exit 0 when results.json is written, 1 when an
// arm run failed or was interrupted (run it again to continue), 2 on a usage error.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { isArmName, ARM_NAMES, type ArmName } from './arms.js';
import { isExperimentError, isOptionsError, OptionsError } from './errors.js';
import { PRESETS, resolveExperimentConfig, validateExperimentConfig, type ExperimentConfig, type ExperimentConfigInput } from './presets.js';
import { runExperiment } from './run-experiment.js';
import { formatSummary } from './summary.js';

export const EXPERIMENT_USAGE = `Usage: spade experiment --preset NAME | --config FILE [--out DIR] [--arms a,b] [--budget N] [--seeds N]
  --preset NAME  ${Object.keys(PRESETS).join(' | ')} (smoke: minutes, figures meaningless; default: about an hour on 2 cores)
  --config FILE  JSON: a partial experiment config over the preset it names ("preset", default "default")
  --out DIR      experiment directory (default runs/experiment-<preset>); run again with the same DIR to continue
  --arms a,b     a subset of ${ARM_NAMES.join(', ')}
  --budget N     policy tokens per arm run (sampled + trained)
  --budget-episodes N  agent episodes per arm run (hinted included): arms at equal agent experience
  --seeds N      run seeds of every arm (default 2 for spade and fixed-envs, 1 for ablations)
With only --out DIR, an experiment started there continues with its saved configuration (DIR/experiment.json).`;

export interface ExperimentCommandIo {
  stdout: Writable;
  stderr: Writable;
  env?: NodeJS.ProcessEnv;
}

function parseCommand(argv: string[]): { config: ExperimentConfig; out: string } | 'help' {
  const { values: v, positionals } = parseArgs({
    args: argv, allowPositionals: true, strict: true,
    options: { preset: { type: 'string' }, config: { type: 'string' }, out: { type: 'string' }, arms: { type: 'string' }, budget: { type: 'string' }, 'budget-episodes': { type: 'string' }, seeds: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (v.help) return 'help';
  if (positionals.length) throw new OptionsError('spade experiment', 'options only', positionals.join(' '));
  if (v.preset !== undefined && v.config !== undefined) throw new OptionsError('--preset / --config', 'one of them', `${v.preset} and ${v.config}`);
  let input: ExperimentConfigInput = {};
  let preset = v.preset;
  if (v.config !== undefined) {
    try {
      input = JSON.parse(readFileSync(v.config, 'utf8')) as ExperimentConfigInput;
    } catch (err) {
      throw new OptionsError('--config', 'a readable JSON file', `${v.config}: ${(err as Error).message}`);
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new OptionsError('--config', 'a JSON object', input);
    preset = input.preset ?? 'default';
  }
  let saved: ExperimentConfig | undefined;
  if (preset === undefined) {
    const file = v.out !== undefined ? join(v.out, 'experiment.json') : undefined;
    if (!file || !existsSync(file)) throw new OptionsError('--preset / --config', `one of them (or --out DIR of a started experiment)`, undefined);
    // Continue with exactly the saved configuration, not the saved one over today's preset.
    saved = JSON.parse(readFileSync(file, 'utf8')) as ExperimentConfig;
  }
  if (v.arms !== undefined) {
    const arms = v.arms.split(',').map((a) => a.trim());
    for (const a of arms) if (!isArmName(a)) throw new OptionsError('--arms', `a comma-separated subset of ${ARM_NAMES.join(', ')}`, a);
    input = { ...input, arms: arms as ArmName[] };
  }
  if (v.budget !== undefined && v['budget-episodes'] !== undefined) throw new OptionsError('--budget / --budget-episodes', 'one of them (a run has one budget)', `${v.budget} and ${v['budget-episodes']}`);
  if (v.budget !== undefined) input = { ...input, budgetTokens: Number(v.budget), budgetEpisodes: 0 };
  if (v['budget-episodes'] !== undefined) input = { ...input, budgetEpisodes: Number(v['budget-episodes']), budgetTokens: 0 };
  const config = saved ? validateExperimentConfig({ ...saved, ...input, eval: { ...saved.eval, ...input.eval } }) : resolveExperimentConfig(preset!, input);
  if (v.seeds !== undefined) {
    const n = Number(v.seeds);
    if (!Number.isSafeInteger(n) || n < 1) throw new OptionsError('--seeds', 'an integer ≥ 1', v.seeds);
    config.seeds = Object.fromEntries(config.arms.map((a) => [a, n]));
  }
  return { config, out: v.out ?? join('runs', `experiment-${config.preset}`) };
}

export async function experimentCommand(argv: string[], io: ExperimentCommandIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let parsed;
  try {
    parsed = parseCommand(argv);
  } catch (err) {
    io.stderr.write(`spade experiment: ${(err as Error).message}\n${EXPERIMENT_USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') return (io.stdout.write(`${EXPERIMENT_USAGE}\n`), 0);
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const started = Date.now();
    const results = await runExperiment(parsed.config, { outDir: parsed.out, log: (l) => io.stderr.write(`${l}\n`), signal: ac.signal, ...(io.env ? { env: io.env } : {}) });
    io.stdout.write(formatSummary(results));
    io.stderr.write(`experiment done in ${((Date.now() - started) / 60_000).toFixed(1)} min: ${join(parsed.out, 'results.json')}\n`);
    return 0;
  } catch (err) {
    if (isOptionsError(err)) {
      io.stderr.write(`spade experiment: ${err.message}\n`);
      return 2;
    }
    if (isExperimentError(err)) {
      io.stderr.write(`spade experiment: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
