// `spade env check|play`: validate environment files, or play one in the terminal (one action per line).
// Exit codes: 0 all valid / episode played, 1 an environment is invalid or failed, 2 usage error.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { isEnvError } from './errors.js';
import type { SandboxOptions } from './options.js';
import { SandboxPool } from './pool.js';
import type { ValidationReport } from './validation-report.js';

export interface EnvCommandIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Sandbox limits for the pool the command starts (defaults when absent). */
  sandbox?: SandboxOptions;
}

export const ENV_USAGE = `Usage:
  spade env check FILE... [--json] [--seeds N]   validate environment modules (exit 0 all valid, 1 any invalid)
  spade env play FILE [--seed N] [--hint]        play one in the terminal, one action per line (--hint: show the instance's hint)
  spade env --help                               this text`;

class UsageError {
  constructor(readonly message: string) {}
}

interface Parsed {
  files: string[];
  flags: Map<string, string | true>;
}

function parse(args: string[], valued: string[], bool: string[]): Parsed {
  const files: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) {
      files.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (bool.includes(name)) flags.set(name, true);
    else if (valued.includes(name)) {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, v);
    } else throw new UsageError(`unknown option --${name}`);
  }
  return { files, flags };
}

function intFlag(p: Parsed, name: string, min: number): number | undefined {
  const v = p.flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  return n;
}

async function readAll(files: string[]): Promise<string[]> {
  return Promise.all(files.map(async (f) => {
    try {
      return await readFile(f, 'utf8');
    } catch {
      throw new UsageError(`cannot read ${f}`);
    }
  }));
}

function describe(file: string, r: ValidationReport): string {
  if (r.ok) {
    const s = r.stats;
    const oracle = s.oracleMean === null ? 'no oracle' : `oracle ${s.oracleMean.toFixed(2)}`;
    return `ok    ${file} (${r.spec?.name}): ${oracle}, random ${s.randomMean?.toFixed(2)}, constant ${s.constantMean?.toFixed(2)}, hint-word ${s.hintProbeMean?.toFixed(2)}, ${Math.round(r.ms)} ms`;
  }
  const bad = r.stages.find((s) => !s.ok);
  return `FAIL  ${file}${r.spec ? ` (${r.spec.name})` : ''}: ${bad?.stage}: ${bad?.detail ?? 'failed'}${bad?.error?.value ? `\n      value: ${bad.error.value}` : ''}`;
}

async function check(args: string[], io: EnvCommandIo): Promise<number> {
  const p = parse(args, ['seeds'], ['json']);
  if (p.files.length === 0) throw new UsageError('check needs at least one FILE');
  const seeds = intFlag(p, 'seeds', 1);
  const codes = await readAll(p.files);
  const pool = new SandboxPool({ ...io.sandbox, workers: Math.max(1, Math.min(p.files.length, availableParallelism())) });
  try {
    const reports = await Promise.all(codes.map((c) => pool.validate(c, seeds === undefined ? {} : { seeds })));
    if (p.flags.has('json')) {
      const results = reports.map((r, i) => ({ file: p.files[i], ...r }));
      io.stdout.write(`${JSON.stringify({ ok: reports.every((r) => r.ok), results })}\n`);
    } else {
      reports.forEach((r, i) => io.stdout.write(`${describe(p.files[i]!, r)}\n`));
      const bad = reports.filter((r) => !r.ok).length;
      io.stdout.write(`${reports.length - bad} valid, ${bad} invalid\n`);
    }
    return reports.every((r) => r.ok) ? 0 : 1;
  } finally {
    await pool.close();
  }
}

async function play(args: string[], io: EnvCommandIo): Promise<number> {
  const p = parse(args, ['seed'], ['hint']);
  if (p.files.length !== 1) throw new UsageError('play needs exactly one FILE');
  const seed = intFlag(p, 'seed', 0) ?? 0;
  const [code] = await readAll(p.files);
  const pool = new SandboxPool({ ...io.sandbox, workers: 1 });
  const out = (s: string): boolean => io.stdout.write(`${s}\n`);
  try {
    const first = await pool.reset({ code: code!, seed, episodeId: 'play' });
    out(`${first.spec.name}: ${first.spec.description}`);
    // The instance's own hint (contract v2) when reset() returned one, else spec.hint.
    if (p.flags.has('hint')) out(`hint${first.hintSource === 'instance' ? ' (this instance)' : ''}: ${first.hint}`);
    out(`(seed ${seed}, at most ${first.spec.maxTurns} turns; one action per line)\n`);
    out(first.observation);
    const actions: string[] = [];
    const lines = createInterface({ input: io.stdin, terminal: false });
    for await (const line of lines) {
      actions.push(line);
      const r = await pool.step({ codeHash: first.codeHash, seed, actions, episodeId: 'play' });
      out(`${r.observation}\n  [turn ${r.turn}, reward ${r.reward}, return ${r.totalReward}${r.info ? `, info ${JSON.stringify(r.info)}` : ''}]`);
      if (r.done) {
        out(`episode ${r.terminated ? 'terminated' : 'truncated'} after ${r.turn} turns with return ${r.totalReward}`);
        lines.close();
        return 0;
      }
    }
    out('input ended before the episode did');
    return 0;
  } catch (err) {
    if (!isEnvError(err)) throw err;
    io.stderr.write(`${err.name} (${err.stage}${err.turn ? `, turn ${err.turn}` : ''}): ${err.message}\n`);
    return 1;
  } finally {
    await pool.close();
  }
}

/** Entry point the `spade` CLI wires as `spade env ...`; argv excludes "env". */
export async function envCommand(
  argv: string[],
  io: EnvCommandIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
      (sub === undefined ? io.stderr : io.stdout).write(`${ENV_USAGE}\n`);
      return sub === undefined ? 2 : 0;
    }
    if (rest.includes('--help')) {
      io.stdout.write(`${ENV_USAGE}\n`);
      return 0;
    }
    if (sub === 'check') return await check(rest, io);
    if (sub === 'play') return await play(rest, io);
    throw new UsageError(`unknown command "${sub}"`);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`spade env: ${err.message}\n${ENV_USAGE}\n`);
    return 2;
  }
}
