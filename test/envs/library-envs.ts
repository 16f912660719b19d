// The shipped environments of envs/library, read once: family, file name and code of each, in name order.
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { repoPath } from '../../runtime/paths.js';

export const FAMILIES = ['reasoning', 'tools', 'games'] as const;

export const envs = FAMILIES.flatMap((family) =>
  readdirSync(repoPath('envs', 'library', family))
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => ({ family, name: basename(f, '.js'), code: readFileSync(repoPath('envs', 'library', family, f), 'utf8') })),
);
