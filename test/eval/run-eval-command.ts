// Runs `spade eval` in-process with captured output, for the eval tests (4 validation seeds, 500 bootstrap replicates: fast).
import { Writable } from 'node:stream';
import { evalCommand } from '../../eval/cli-eval.js';
import type { EvalReport } from '../../eval/report.js';
import { repoPath } from '../../runtime/paths.js';

export const FIXTURE_SUITE = repoPath('test', 'fixtures', 'eval-suite');
export const BASE = repoPath('model', 'checkpoints', 'base');

const sink = (chunks: string[]): Writable => new Writable({ write(c, _e, cb) { chunks.push(String(c)); cb(); } });

export async function runEvalCommand(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [], err: string[] = [];
  const code = await evalCommand(argv, { stdout: sink(out), stderr: sink(err), options: { resamples: 500, loop: { designer: { validationSeeds: 4 } } } });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

export async function evalJson(argv: string[]): Promise<EvalReport> {
  const r = await runEvalCommand([...argv, '--json']);
  if (r.code !== 0) throw new Error(`spade eval exited ${r.code}: ${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one JSON line, got ${lines.length}`);
  return JSON.parse(lines[0]!) as EvalReport;
}
