// Test helper: writes a run directory as a finished run leaves it (envs/accepted.jsonl with a code file per accepted
// environment, envs/evaluated.jsonl, envs/replayed.jsonl, metrics.jsonl) in a temporary directory removed at teardown,
// and library modules with their knobs set to other values.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoPath } from '../../runtime/paths.js';

export interface RunArchiveFixture {
  accepted?: object[];
  evaluated?: object[];
  replayed?: object[];
  /** metrics.jsonl lines; without it, one iteration line; null: no metrics.jsonl. */
  metrics?: object[] | null;
  /** envId → module code (envs/<envId>.js). */
  code?: Record<string, string>;
  /** Files written as given (path under the run directory → text), after the rest. */
  raw?: Record<string, string>;
}

const jsonl = (lines: readonly object[]): string => lines.map((l) => `${JSON.stringify(l)}\n`).join('');

export function writeRunArchive(t: { teardown(fn: () => void): void }, f: RunArchiveFixture): string {
  const dir = mkdtempSync(join(tmpdir(), 'run-archive-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'envs'));
  if (f.accepted) writeFileSync(join(dir, 'envs', 'accepted.jsonl'), jsonl(f.accepted));
  if (f.evaluated) writeFileSync(join(dir, 'envs', 'evaluated.jsonl'), jsonl(f.evaluated));
  if (f.replayed) writeFileSync(join(dir, 'envs', 'replayed.jsonl'), jsonl(f.replayed));
  if (f.metrics !== null) writeFileSync(join(dir, 'metrics.jsonl'), jsonl(f.metrics ?? [{ event: 'iteration', iteration: { index: 1, meanDesignerReward: 0 } }]));
  for (const [envId, code] of Object.entries(f.code ?? {})) writeFileSync(join(dir, 'envs', `${envId}.js`), code);
  for (const [path, text] of Object.entries(f.raw ?? {})) writeFileSync(join(dir, path), text);
  return dir;
}

/** A library module (`games/window-search`) with some of its `const NAME = <integer>;` knobs set to other values. */
export function libraryModule(path: string, knobs: Record<string, number> = {}): string {
  let code = readFileSync(repoPath('envs', 'library', `${path}.js`), 'utf8');
  for (const [name, value] of Object.entries(knobs)) code = code.replace(new RegExp(`^const ${name} = \\d+;`, 'm'), `const ${name} = ${value};`);
  return code;
}
