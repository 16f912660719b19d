// Contract v2: reset() may return { observation, hint }; the pool hands that per-instance hint back with the
// observation (hintSource 'instance'), and a v1 module's reset gets spec.hint (hintSource 'spec'). A hint that is
// not a non-empty string is a contract error naming reset().hint.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { isEnvContract, SandboxPool } from '../../sandbox/index.js';

const V2 = readFileSync(repoPath('test', 'fixtures', 'hints', 'secret-digit-v2.js'), 'utf8');
const V1 = readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8');
const badHint = (hint: string): string =>
  `export const spec = { name: "bad-hint", description: "d", hint: "h", maxTurns: 2 };
export default class Env { reset(seed) { return { observation: "o", hint: ${hint} }; } step(a) { return { observation: "x", reward: 0, terminated: true }; } }`;

const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
t.teardown(() => pool.close());

t.test('a v2 module gives each instance its own hint', async (t) => {
  const hints = new Set<string>();
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const r = await pool.reset({ code: V2, seed });
    t.equal(r.hintSource, 'instance');
    t.match(r.hint, /^The digit is \d or \d; secret code s\d\.$/);
    t.not(r.hint, r.spec.hint, 'not the fallback');
    t.equal((await pool.reset({ code: V2, seed })).hint, r.hint, 'the same seed gives the same hint');
    hints.add(r.hint);
  }
  t.ok(hints.size >= 3, `hints vary with the seed (${hints.size} distinct of 6)`);
});

t.test('a v1 module gets spec.hint', async (t) => {
  const r = await pool.reset({ code: V1, seed: 3 });
  t.equal(r.hintSource, 'spec');
  t.equal(r.hint, r.spec.hint);
  t.match(r.hint, /every addition but the last/);
});

t.test('a malformed instance hint is a contract error naming reset().hint', async (t) => {
  for (const [value, why] of [['42', 'a string'], ['"  "', 'a non-empty string'], ['"x".repeat(9000)', 'longer than 8192']] as const) {
    const err = await pool.reset({ code: badHint(value), seed: 1 }).then(() => null, (e: unknown) => e);
    t.ok(isEnvContract(err), `${value}: EnvContract`);
    t.match((err as Error).message, /reset\(\)\.hint/, `${value}: names the field`);
    t.match((err as Error).message, why);
    t.equal((err as { stage?: string }).stage, 'reset');
  }
});
