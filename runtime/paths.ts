// Locates the repository root at run time, so shipped files (envs/, model/ checkpoints,
// corpus) are found the same way from source tests, compiled dist/ and the CLI.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'cluster.config.ts'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** Absolute path of the repository root (the folder holding package.json and cluster.config.ts). */
export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path inside the repository. */
export function repoPath(...parts: string[]): string {
  return join(REPO_ROOT, ...parts);
}
