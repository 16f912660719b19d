// Test helper: a held-out suite (envs/heldout/<family>/<name>.js, or the near tier envs/heldout-near) as files, and the
// code normaliser the disjointness test compares modules with.
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { repoPath } from '../../runtime/paths.js';
import { codeHash } from '../../sandbox/index.js';
import { knobSetting } from '../../warmstart/index.js';

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

/** A module's knob setting (`CODES=6 TRIES=4`), read as the warm start reads it when it keeps its children off the near tier's. */
export { knobSetting };

/** The near tier's modules, each with its library parent (the module its first comment line names) and knob setting. */
export function nearSettings(): { file: string; parent: string; setting: string }[] {
  return heldOutFiles('heldout-near').map((e) => {
    const src = /^\/\/ Near held-out tier: envs\/library\/[a-z]+\/([a-z-]+)\.js /.exec(e.code)?.[1];
    if (!src) throw new TypeError(`${e.file}: the first line does not name its library module`);
    return { file: e.file, parent: src, setting: knobSetting(e.code) };
  });
}

/** The training modules whose parent and knob setting are a near module's: one entry per clash, naming both. */
export function nearSettingClashes<T extends { root: string; code: string }>(near: readonly { file: string; parent: string; setting: string }[], training: readonly T[]): { near: string; setting: string; module: T }[] {
  return training.flatMap((m) => {
    const setting = knobSetting(m.code);
    return near.filter((n) => n.parent === m.root && n.setting === setting).map((n) => ({ near: n.file, setting, module: m }));
  });
}
