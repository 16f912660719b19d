// `spade eval CHECKPOINT... --suite DIR [--seeds N] [--hint both|off] [--temperature T] [--first-seed N] [--json]`:
// tables (or one JSON line) on stdout, progress and turns/s on stderr. Exit 0 when it ran (invalid modules and faults
// are results, not failures), 2 on a usage error.
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { EvalOptionsError } from './errors.js';
import { formatReport } from './report.js';
import { runEval, type EvalOptions } from './run-eval.js';
import { etaSeconds, progressBar } from '../runtime/progress.js';

export const EVAL_USAGE = `Usage: spade eval CHECKPOINT... --suite DIR [--seeds N] [--hint both|off] [--temperature T] [--first-seed N] [--json]
  CHECKPOINT      checkpoint directory (e.g. model/checkpoints/base); several are compared on the same seeds
  --suite DIR     environment modules under DIR, recursively; family = the directory holding each file
  --seeds N       seeds per environment and arm (default 16), seeds first-seed .. first-seed + N - 1
  --first-seed N  first seed (default 1001: unseen by validation and the warm start)
  --hint both|off play with and without the hint (default both), or without only
  --temperature T agent sampling temperature (default the loop's, 0.3)
  --json          one JSON line instead of tables (docs/evaluation.md describes it)`;

export interface EvalCommandIo {
  stdout: Writable;
  stderr: Writable;
  /** Extra options (tests: sandbox limits, bootstrap replicates). */
  options?: Partial<EvalOptions>;
}

function int(v: string | undefined, flag: string, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) throw new EvalOptionsError(flag, `an integer ≥ ${min}`, v);
  return n;
}

export async function evalCommand(argv: string[], io: EvalCommandIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let o: EvalOptions, json: boolean;
  try {
    const { values: v, positionals } = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: {
        suite: { type: 'string' }, seeds: { type: 'string' }, 'first-seed': { type: 'string' }, hint: { type: 'string' },
        temperature: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' },
      },
    });
    if (v.help) return (io.stdout.write(`${EVAL_USAGE}\n`), 0);
    if (positionals.length === 0) throw new EvalOptionsError('CHECKPOINT', 'at least one checkpoint directory', argv.join(' '));
    if (v.suite === undefined) throw new EvalOptionsError('--suite', 'a directory of environment modules', undefined);
    if (v.hint !== undefined && v.hint !== 'both' && v.hint !== 'off') throw new EvalOptionsError('--hint', '"both" or "off"', v.hint);
    const temperature = v.temperature === undefined ? undefined : Number(v.temperature);
    if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0)) throw new EvalOptionsError('--temperature', 'a number ≥ 0', v.temperature);
    json = v.json ?? false;
    o = {
      ...io.options, checkpoints: positionals, suite: v.suite, hint: v.hint !== 'off',
      ...(v.seeds !== undefined ? { seeds: int(v.seeds, '--seeds', 1)! } : {}),
      ...(v['first-seed'] !== undefined ? { firstSeed: int(v['first-seed'], '--first-seed', 0)! } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    };
  } catch (err) {
    const msg = err instanceof EvalOptionsError ? err.message : (err as Error).message; // parseArgs' own errors are TypeErrors
    io.stderr.write(`spade eval: ${msg}\n${EVAL_USAGE}\n`);
    return 2;
  }
  let last = 0;
  const { report, timing } = await runEval({
    ...o,
    log: (line) => io.stderr.write(`${line}\n`),
    onProgress: (ck, p) => {
      if (p.episodes < p.total && p.seconds - last < 2) return;
      last = p.episodes < p.total ? p.seconds : 0;
      io.stderr.write(`eval ${ck}: ${progressBar(p.episodes / p.total, `${p.total} episodes`, etaSeconds(p.episodes / p.total, p.seconds), 20)} · ${p.turns} turns, ${(p.turns / Math.max(p.seconds, 1e-9)).toFixed(1)} turns/s\n`);
    },
  });
  io.stdout.write(json ? `${JSON.stringify(report)}\n` : formatReport(report));
  for (const t of timing) {
    io.stderr.write(`eval ${t.checkpoint}: ${t.turns} turns in ${t.seconds.toFixed(1)} s = ${(t.turns / t.seconds).toFixed(1)} turns/s `
      + `(${t.cpuSeconds.toFixed(1)} CPU s, ${(t.turns / t.cpuSeconds).toFixed(1)} turns per CPU s)\n`);
  }
  return 0;
}
