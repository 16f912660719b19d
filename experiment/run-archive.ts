// A finished run's archive as the frontier figures read it, checked line by line: envs/accepted.jsonl (with each
// accepted environment's code, envs/<envId>.js), envs/evaluated.jsonl (the designs' evaluations), envs/replayed.jsonl
// (replays: counted, never a design) and the iteration lines of metrics.jsonl. The coordinator writes them
// (actors/coordinator/coordinator-logic.ts `archive` effects); an archive file it never had a line for does not exist.
// Anything malformed throws an ArchiveError naming the file and the line.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ArchiveError } from './errors.js';

type Line = Record<string, unknown>;

export interface AcceptedLine {
  envId: string;
  iteration: number;
  /** The module's spec name. */
  name: string | null;
  /** The edited parent first (`library:<name>` or an earlier envId), then the other memory entries the prompt showed. */
  parents: string[];
  code: string;
}

export interface EvaluatedLine {
  envId: string;
  iteration: number;
  feasible: boolean;
  /** Null without a no-hint return (a feasible environment may lack one). */
  regret: number | null;
  /** Null when every unhinted episode failed to score (the evaluator leaves the return out). */
  returnNoHint: number | null;
}

export interface IterationLine {
  index: number;
  meanDesignerReward: number | null;
}

export interface RunArchive {
  runDir: string;
  accepted: AcceptedLine[];
  /** Evaluations of designs (a replay's evaluation is in replayed.jsonl, and never here). */
  evaluated: EvaluatedLine[];
  replays: number;
  /** By index; a resumed run's repeated index keeps its last line. */
  iterations: IterationLine[];
}

// The coordinator names the code file after the envId: one that could leave envs/ is malformed.
const ENV_ID = /^[^./\\\0][^/\\\0]{0,199}$/;
const isInt = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const orNull = (x: unknown): x is number | null | undefined => x === null || x === undefined || isNum(x);

/** The lines of `rel` under the run directory with their 1-based numbers; a missing file has none unless `required`. */
function readLines(runDir: string, rel: string, required = false): { n: number; line: Line }[] {
  const file = join(runDir, rel);
  if (!existsSync(file)) {
    if (required) throw new ArchiveError(`run ${runDir}: no ${rel}`, runDir, file, null);
    return [];
  }
  const out: { n: number; line: Line }[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
    if (!text.trim()) return;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch (err) {
      throw new ArchiveError(`run ${runDir}: ${rel} line ${i + 1} is not JSON`, runDir, file, i + 1, err);
    }
    if (typeof line !== 'object' || line === null || Array.isArray(line)) throw new ArchiveError(`run ${runDir}: ${rel} line ${i + 1} is not a JSON object`, runDir, file, i + 1);
    out.push({ n: i + 1, line: line as Line });
  });
  return out;
}

/** Throws unless `ok`: the message names the file, the line and what the field should have been. */
function expect(ok: boolean, runDir: string, rel: string, n: number, what: string, value: unknown): void {
  if (!ok) throw new ArchiveError(`run ${runDir}: ${rel} line ${n}: ${what} (got ${JSON.stringify(value) ?? String(value)})`, runDir, join(runDir, rel), n);
}

function accepted(runDir: string): AcceptedLine[] {
  const rel = join('envs', 'accepted.jsonl');
  return readLines(runDir, rel).map(({ n, line: l }) => {
    expect(typeof l.envId === 'string' && ENV_ID.test(l.envId), runDir, rel, n, 'envId must be an environment id', l.envId);
    expect(isInt(l.iteration), runDir, rel, n, 'iteration must be a non-negative integer', l.iteration);
    expect(l.parents === undefined || (Array.isArray(l.parents) && l.parents.every((p) => typeof p === 'string')), runDir, rel, n, 'parents must be a list of ids', l.parents);
    expect(l.name === undefined || l.name === null || typeof l.name === 'string', runDir, rel, n, 'name must be a string', l.name);
    const codeFile = join(runDir, 'envs', `${l.envId as string}.js`);
    if (!existsSync(codeFile)) throw new ArchiveError(`run ${runDir}: ${rel} line ${n}: accepted environment ${l.envId as string} has no code file ${codeFile}`, runDir, codeFile, null);
    return { envId: l.envId as string, iteration: l.iteration as number, name: (l.name as string | undefined) ?? null, parents: (l.parents as string[] | undefined) ?? [], code: readFileSync(codeFile, 'utf8') };
  });
}

function evaluated(runDir: string): EvaluatedLine[] {
  const rel = join('envs', 'evaluated.jsonl');
  return readLines(runDir, rel).filter(({ line }) => line.replayOf === undefined).map(({ n, line: l }) => {
    expect(typeof l.envId === 'string' && l.envId !== '', runDir, rel, n, 'envId must be an environment id', l.envId);
    expect(isInt(l.iteration), runDir, rel, n, 'iteration must be a non-negative integer', l.iteration);
    expect(typeof l.feasible === 'boolean', runDir, rel, n, 'feasible must be true or false', l.feasible);
    expect(orNull(l.regret), runDir, rel, n, 'regret must be a finite number when present', l.regret);
    expect(orNull(l.returnNoHint), runDir, rel, n, 'returnNoHint must be a finite number when present', l.returnNoHint);
    return { envId: l.envId as string, iteration: l.iteration as number, feasible: l.feasible as boolean, regret: (l.regret as number | undefined) ?? null, returnNoHint: (l.returnNoHint as number | undefined) ?? null };
  });
}

function iterations(runDir: string): IterationLine[] {
  const byIndex = new Map<number, IterationLine>();
  for (const { n, line: l } of readLines(runDir, 'metrics.jsonl', true)) {
    if (l.event !== 'iteration') continue;
    const it = l.iteration as Line | undefined;
    expect(typeof it === 'object' && it !== null && isInt(it.index), runDir, 'metrics.jsonl', n, 'an iteration line needs iteration.index, a non-negative integer', it?.index);
    expect(orNull(it!.meanDesignerReward), runDir, 'metrics.jsonl', n, 'iteration.meanDesignerReward must be a finite number or null', it!.meanDesignerReward);
    byIndex.set(it!.index as number, { index: it!.index as number, meanDesignerReward: (it!.meanDesignerReward as number | null | undefined) ?? null });
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Reads and checks a finished run's archive. */
export function readRunArchive(runDir: string): RunArchive {
  const its = iterations(runDir);
  return { runDir, accepted: accepted(runDir), evaluated: evaluated(runDir), replays: readLines(runDir, join('envs', 'replayed.jsonl')).length, iterations: its };
}
