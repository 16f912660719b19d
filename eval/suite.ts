// A suite: every environment module (*.js) under a directory, recursively, in path order. An environment's family is
// the name of the directory that holds its file (envs/heldout/games/x.js → "games"); kit.js files are the shared kit,
// not environments, and are skipped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { SuiteError } from './errors.js';

export interface SuiteModule {
  /** Path relative to the suite directory, with forward slashes (the key of `invalid` in the report). */
  file: string;
  family: string;
  code: string;
}

export interface Suite {
  dir: string;
  modules: SuiteModule[];
}

function walk(dir: string, out: string[]): void {
  for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(dir, d.name);
    if (d.isDirectory()) walk(p, out);
    else if (d.isFile() && d.name.endsWith('.js') && d.name !== 'kit.js') out.push(p);
  }
}

/** The environment modules a path names: the file itself, or every module under the directory (walk's order and skips). */
export function moduleFiles(path: string): string[] {
  const p = resolve(path);
  if (!statSync(p).isDirectory()) return [p];
  const out: string[] = [];
  walk(p, out);
  return out;
}

/** Reads a suite; throws SuiteError when the directory is missing or holds no module. */
export function loadSuite(dir: string): Suite {
  const root = resolve(dir);
  try {
    if (!statSync(root).isDirectory()) throw new SuiteError(`suite ${dir} is not a directory`, dir);
  } catch (err) {
    if (err instanceof SuiteError) throw err;
    throw new SuiteError(`suite ${dir} cannot be read: ${(err as Error).message}`, dir, err);
  }
  const files: string[] = [];
  walk(root, files);
  if (files.length === 0) throw new SuiteError(`suite ${dir} holds no environment module (*.js)`, dir);
  return {
    dir: root,
    modules: files.map((f) => ({ file: relative(root, f).split('\\').join('/'), family: basename(dirname(f)), code: readFileSync(f, 'utf8') })),
  };
}
