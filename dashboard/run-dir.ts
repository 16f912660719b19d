// A finished (or running) run read from its directory: metrics.jsonl and the environment archive the coordinator
// writes (envs/accepted.jsonl, rejected.jsonl, evaluated.jsonl and each accepted module's code), folded into a
// RunModel. What only the bus holds (episodes, the designer's prompt) is not in the directory, so a report built from
// it has no trajectories.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReportInputError } from './errors.js';
import { RunModel, type EnvText } from './run-model.js';

type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The lines of a JSONL file ([] when it does not exist); a line that is not JSON fails naming the file and line. */
export function readJsonl(file: string): Line[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').flatMap((l, i) => {
    if (!l.trim()) return [];
    try {
      return [JSON.parse(l) as Line];
    } catch (err) {
      throw new ReportInputError(`${file} line ${i + 1} is not JSON`, file, err);
    }
  });
}

const specField = (code: string, field: string): string | null => new RegExp(`${field}\\s*:\\s*(["'\`])((?:\\\\.|(?!\\1).)*)\\1`).exec(code)?.[2] ?? null;

/** Folds a run directory into a model. */
export function readRunDir(runDir: string): RunModel {
  const metricsFile = join(runDir, 'metrics.jsonl');
  if (!existsSync(metricsFile)) throw new ReportInputError(`${runDir} is not a run directory: it has no metrics.jsonl`, runDir);
  let designs = Infinity;
  const cfg = join(runDir, 'config.json');
  if (existsSync(cfg)) {
    try {
      designs = (JSON.parse(readFileSync(cfg, 'utf8')) as { run?: { designsPerIteration?: number } }).run?.designsPerIteration ?? Infinity;
    } catch (err) {
      throw new ReportInputError(`${cfg} is not JSON`, cfg, err);
    }
  }
  const metrics = readJsonl(metricsFile);
  const model = new RunModel(runDir, designs, typeof metrics[0]?.ts === 'number' && typeof metrics[0]?.elapsedSec === 'number' ? metrics[0].ts - metrics[0].elapsedSec * 1000 : Date.now());
  const env = (kind: string) => readJsonl(join(runDir, 'envs', `${kind}.jsonl`));
  const events = [
    ...env('accepted').map((l) => ({ kind: 'accepted' as const, l })),
    ...env('rejected').map((l) => ({ kind: 'rejected' as const, l })),
  ].sort((a, b) => a.l.iteration - b.l.iteration);
  for (const { kind, l } of events) {
    if (kind === 'accepted') {
      const file = join(runDir, 'envs', `${l.envId}.js`);
      const code = existsSync(file) ? readFileSync(file, 'utf8') : '';
      const text: EnvText = { code, description: specField(code, 'description'), hint: specField(code, 'hint'), maxTurns: Number(/maxTurns\s*:\s*(\d+)/.exec(code)?.[1] ?? NaN) || null, document: null, parentCode: null, validation: l.validation ?? null };
      model.accepted({ envId: l.envId, iteration: l.iteration, name: l.name, family: l.family, doc: l.doc ?? null, parents: l.parents ?? [], novelty: l.novelty ? { novel: l.novelty.novel, libraryCopyOf: l.novelty.libraryCopyOf, maxLibrarySimilarity: l.novelty.librarySimilarity, maxAcceptedSimilarity: l.novelty.acceptedSimilarity, newStructure: l.novelty.newStructure === true, maxLibraryStructure: l.novelty.libraryStructure ?? 0, maxAcceptedStructure: l.novelty.acceptedStructure ?? 0 } : null }, text);
    } else {
      model.rejected({ envId: l.envId, iteration: l.iteration, stage: l.stage, reason: l.reason ?? '', doc: l.doc ?? null, parents: l.parents ?? [] }, { code: '', description: null, hint: null, maxTurns: null, document: null, parentCode: null, validation: null });
    }
  }
  for (const l of env('evaluated')) model.labeled({ envId: l.envId, iteration: l.iteration, accepted: true, regret: l.regret, returnHint: l.returnHint, returnNoHint: l.returnNoHint, feasible: l.feasible, designerReward: l.designerReward ?? 0, trajectories: 0 });
  for (const l of metrics) model.metricsLine(l);
  return model;
}
