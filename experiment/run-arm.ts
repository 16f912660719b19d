// One arm × run seed: a child `spade start --role all` in its own run directory, to the experiment's policy-token
// budget, from the base checkpoint. Child processes keep each run's memory, threads and embedded nats-server apart
// and make an interrupted experiment easy to continue:
//   - `arm.json` present: the run finished; it is skipped.
//   - `config.json` present without it: the run was interrupted; it continues with `--resume` (its store, learner
//     checkpoint and coordinator schedule carry on; the budget is the saved one, so it stops where it would have).
//   - neither: a fresh run.
// Wall-clock is the sum over its attempts (`attempts.jsonl`).
import { spawn } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoPath } from '../runtime/paths.js';
import { ARMS, armRunName, type ArmName } from './arms.js';
import { ArmRunError, RunReadError } from './errors.js';
import { budgetWords, type ExperimentConfig } from './presets.js';

export interface ArmRecord {
  arm: ArmName;
  seed: number;
  runDir: string;
  /** The learner's final checkpoint (its model/ directory). */
  finalCheckpoint: string;
  /** Seconds of all attempts together. */
  wallSec: number;
  attempts: number;
}

export type ArmState = 'done' | 'resume' | 'fresh';

export function armState(runDir: string): ArmState {
  if (existsSync(join(runDir, 'arm.json'))) return 'done';
  return existsSync(join(runDir, 'config.json')) ? 'resume' : 'fresh';
}

/** `--set` arguments of one arm run: the experiment's common overrides, the arm's own, the budget and the base. */
export function armArgs(c: ExperimentConfig, arm: ArmName, seed: number, runDir: string): string[] {
  const set: Record<string, unknown> = {
    'run.view': 'lines',
    ...c.set,
    ...ARMS[arm].set,
    ...((c.budgetEpisodes ?? 0) > 0 ? { 'run.budgetEpisodes': c.budgetEpisodes } : { 'run.budgetTokens': c.budgetTokens }),
    'run.curvePoints': c.curvePoints,
    'loop.policy.checkpoint': resolve(c.baseCheckpoint),
    'loop.policy.missingCheckpoint': 'fail',
  };
  return ['--role', 'all', '--run-dir', runDir, '--seed', String(seed), ...Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${JSON.stringify(v)}`])];
}

/** The learner's latest checkpoint in a finished run. */
export function finalCheckpointOf(runDir: string): string {
  const learner = join(runDir, 'learner');
  try {
    return join(learner, readFileSync(join(learner, 'LATEST'), 'utf8').trim(), 'model');
  } catch (err) {
    throw new RunReadError(`run ${runDir}: no learner checkpoint (${join(learner, 'LATEST')})`, runDir, err);
  }
}

export interface RunArmOptions {
  log?: (line: string) => void;
  /** Extra environment of the child (tests). */
  env?: NodeJS.ProcessEnv;
  /** Called with the child once it is spawned (tests interrupt it). */
  onSpawn?: (pid: number) => void;
  /** Aborting drains the child (SIGTERM): the run stays resumable. */
  signal?: AbortSignal;
}

/** Whether the run's coordinator wrote its `final` line (budget spent) at or after `since` (ms). */
export function finishedSince(runDir: string, since: number): boolean {
  const file = join(runDir, 'metrics.jsonl');
  if (!existsSync(file)) return false;
  return readFileSync(file, 'utf8').split('\n').some((l) => {
    if (!l.includes('"final"')) return false;
    const m = JSON.parse(l) as { event: string; ts: number };
    return m.event === 'final' && m.ts >= since;
  });
}

function wallOf(runDir: string): { wallSec: number; attempts: number } {
  const file = join(runDir, 'attempts.jsonl');
  if (!existsSync(file)) return { wallSec: 0, attempts: 0 };
  const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { wallSec: number });
  return { wallSec: lines.reduce((a, l) => a + l.wallSec, 0), attempts: lines.length };
}

/** Runs (or continues, or skips) one arm × seed under `outDir`; resolves with its record once finished. */
export async function runArm(c: ExperimentConfig, arm: ArmName, seed: number, outDir: string, o: RunArmOptions = {}): Promise<ArmRecord> {
  const runDir = resolve(outDir, armRunName(arm, seed));
  const log = o.log ?? (() => undefined);
  const state = armState(runDir);
  if (state === 'done') {
    log(`${arm} seed ${seed}: finished before, skipped (${runDir})`);
    return JSON.parse(readFileSync(join(runDir, 'arm.json'), 'utf8')) as ArmRecord;
  }
  mkdirSync(runDir, { recursive: true });
  const args = state === 'resume' ? ['--resume', runDir] : armArgs(c, arm, seed, runDir);
  log(`${arm} seed ${seed}: ${state === 'resume' ? 'resuming the interrupted run' : 'starting'} in ${runDir} (budget ${budgetWords(c)})`);
  const logFile = join(runDir, 'host.log');
  const out = createWriteStream(logFile, { flags: 'a' });
  const started = Date.now();
  const child = spawn(process.execPath, [repoPath('runtime/start.js'), ...args], {
    cwd: repoPath(), env: { ...process.env, SPADE_NATS_URL: '', ...o.env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  o.onSpawn?.(child.pid!);
  const abort = () => child.kill('SIGTERM');
  o.signal?.addEventListener('abort', abort, { once: true });
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  o.signal?.removeEventListener('abort', abort);
  await new Promise<void>((res) => out.end(res));
  const wallSec = (Date.now() - started) / 1000;
  appendFileSync(join(runDir, 'attempts.jsonl'), `${JSON.stringify({ startedAt: new Date(started).toISOString(), wallSec, resumed: state === 'resume', code, signal })}\n`);
  if (code !== 0) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
    throw new ArmRunError(`arm ${arm} seed ${seed}: spade start exited ${code ?? signal} (log ${logFile}):\n${tail}`, arm, seed, runDir, logFile);
  }
  // A drained child exits 0 too (a signal): only the coordinator's final line says the budget was spent.
  if (!finishedSince(runDir, started - 1000))
    throw new ArmRunError(`arm ${arm} seed ${seed}: the run stopped before its budget was spent (interrupted); run the experiment again to resume it`, arm, seed, runDir, logFile);
  const record: ArmRecord = { arm, seed, runDir, finalCheckpoint: finalCheckpointOf(runDir), ...wallOf(runDir) };
  writeFileSync(join(runDir, 'arm.json'), `${JSON.stringify(record, null, 2)}\n`);
  // A finished run is never resumed, and its embedded server's store (every published weight version) is the bulk of
  // its directory (gigabytes over a few hundred versions): the figures are in metrics.jsonl and the checkpoints.
  if (!c.keepStores) rmSync(join(runDir, 'nats'), { recursive: true, force: true });
  return record;
}
