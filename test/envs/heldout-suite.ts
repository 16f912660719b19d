// Test helper: a held-out suite (envs/heldout/<family>/<name>.js, or the near tier envs/heldout-near) as files, and the
// code normaliser the disjointness test compares modules with.
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { repoPath } from '../../runtime/paths.js';
import { codeHash } from '../../sandbox/index.js';

export const HELDOUT_FAMILIES = ['reasoning', 'tools', 'games'] as const;

export interface HeldOutFile {
  family: (typeof HELDOUT_FAMILIES)[number];
  /** File name without .js. */
  name: string;
  file: string;
  code: string;
}

export function heldOutFiles(suite: 'heldout' | 'heldout-near' = 'heldout'): HeldOutFile[] {
  return HELDOUT_FAMILIES.flatMap((family) =>
    readdirSync(repoPath('envs', suite, family))
      .filter((f) => f.endsWith('.js'))
      .sort()
      .map((f) => ({ family, name: basename(f, '.js'), file: `envs/${suite}/${family}/${f}`, code: readFileSync(repoPath('envs', suite, family, f), 'utf8') })));
}

/**
 * The code with comments and layout taken out: whole-line `//` comments, trailing ` // ...` comments and `/* ... *\/`
 * blocks dropped, every run of whitespace made one space. Two modules that differ only in comments or formatting
 * normalise to the same text (a string literal holding " // " is cut too; that only makes the check stricter).
 */
export function normaliseCode(code: string): string {
  return code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .split('\n')
    .map((line) => (/^\s*\/\//.test(line) ? '' : line.replace(/\s\/\/\s.*$/, '')))
    .join('\n')
    .replace(/\s+/g, ' ')
    .trim();
}

export function normalisedHash(code: string): string {
  return codeHash(normaliseCode(code));
}

/** Token trigrams of normalised code (identifiers, numbers, single symbols), for a Jaccard similarity. */
export function trigrams(code: string): Set<string> {
  const toks = normaliseCode(code).match(/[A-Za-z_$][\w$]*|\d+|\S/g) ?? [];
  const out = new Set<string>();
  for (let i = 0; i + 2 < toks.length; i++) out.add(`${toks[i]} ${toks[i + 1]} ${toks[i + 2]}`);
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 1 : both / union;
}
