// Shared bits of the sandbox tests: fixture loading and a valid request that proves a pool still serves.
import { readFileSync, readdirSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';
import type { SandboxPool } from '../../sandbox/index.js';

export const VALID_CODE = readFileSync(repoPath('test', 'fixtures', 'sum-to-target.js'), 'utf8');

export interface HostileCase {
  name: string;
  code: string;
  expect: string;
}

export function hostileCorpus(): HostileCase[] {
  const dir = repoPath('test', 'fixtures', 'hostile');
  return readdirSync(dir).filter((f) => f.endsWith('.js')).sort().map((f) => {
    const code = readFileSync(`${dir}/${f}`, 'utf8');
    const expect = /^\/\/ expect: (.*)$/m.exec(code)?.[1] ?? 'missing';
    return { name: f.replace(/\.js$/, ''), code, expect };
  });
}

/** Plays two turns of the valid fixture; resolves with the step result. */
export async function servesValid(pool: SandboxPool, seed = 7) {
  await pool.reset({ code: VALID_CODE, seed });
  return pool.step({ code: VALID_CODE, seed, actions: ['5', '9'] });
}
