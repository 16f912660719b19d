// The shipped environment library (envs/library/<family>/<name>.js) as the fixed-environment baseline draws from it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OptionsError } from '../../runtime/options.js';
import { repoPath } from '../../runtime/paths.js';

export interface LibraryEnv {
  family: string;
  /** File name without .js (the environment's spec.name by convention). */
  name: string;
  code: string;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every library module, in (family, name) order so a seeded pick is the same on every host. */
export function loadLibraryEnvs(root = repoPath('envs', 'library')): LibraryEnv[] {
  const out: LibraryEnv[] = [];
  for (const fam of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort(byName)) {
    for (const f of readdirSync(join(root, fam)).filter((n) => n.endsWith('.js')).sort(byName))
      out.push({ family: fam, name: f.slice(0, -3), code: readFileSync(join(root, fam, f), 'utf8') });
  }
  return out;
}

/**
 * The modules named by `loop.modules` (all of them when it is empty), in library order. A name the library lacks is
 * a configuration error naming its index, so a typo does not quietly train on fewer modules.
 */
export function onlyModules(library: readonly LibraryEnv[], names: readonly string[], path = 'loop.modules'): LibraryEnv[] {
  if (names.length === 0) return [...library];
  names.forEach((n, i) => {
    if (!library.some((e) => e.name === n)) throw new OptionsError(`${path}[${i}]`, `a library module (${library.map((e) => e.name).join(', ')})`, n);
  });
  return library.filter((e) => names.includes(e.name));
}
