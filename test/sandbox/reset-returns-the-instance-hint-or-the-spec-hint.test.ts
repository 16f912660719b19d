// Contract v2: reset() may return { observation, hint }; the pool hands that per-instance hint back with the
// observation (hintSource 'instance'), and a v1 module's reset gets spec.hint (hintSource 'spec').
import { readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { SandboxPool } from '../../sandbox/index.js';

const V2 = readFileSync(repoPath('test', 'fixtures', 'hints', 'secret-digit-v2.js'), 'utf8');
const V1 = readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8');

const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
t.teardown(() => pool.close());

t.test('each instance its own hint (v2), else spec.hint (v1)', async (t) => {
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

  // A v1 module's reset gets spec.hint.
  const r = await pool.reset({ code: V1, seed: 3 });
  t.equal(r.hintSource, 'spec');
  t.equal(r.hint, r.spec.hint);
  t.match(r.hint, /every addition but the last/);
});
