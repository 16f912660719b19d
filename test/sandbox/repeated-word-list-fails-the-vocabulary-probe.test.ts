// The probes stage's vocabulary probe: constant actions also include the module's own repeated short literals. A
// designer child of caesar-shift whose word list was rewritten as one repeated entry (seen in loop runs: a list of
// 's') is winnable by saying that entry every turn, so it fails at probes naming it; the parent, whose words are
// distinct, passes as before.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { SandboxPool } from '../../sandbox/index.js';

const parent = readFileSync(repoPath('envs', 'library', 'reasoning', 'caesar-shift.js'), 'utf8');
const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
t.teardown(() => pool.close());

t.test('a word list of one repeated entry is trivially winnable; distinct words are not', async (t) => {
  const list = /const WORDS = \[[^\]]*\];/.exec(parent)![0];
  const degenerate = parent.replace(list, `const WORDS = [${[...Array(20).fill("'s'"), "'garden'", "'silver'"].join(', ')}];`);
  const bad = await pool.validate(degenerate, { seeds: 8 });
  t.equal(bad.failed, 'probes');
  t.match(bad.stages.find((s) => !s.ok)?.detail, /^the constant action "s" scores \d\.\d{3} ≥ 0\.2: trivially winnable$/);
  t.equal(bad.stats.constantAction, 's');

  const good = await pool.validate(parent, { seeds: 8 });
  t.equal(good.failed, null, 'the library module still validates');
  t.ok((good.stats.constantMean ?? 1) < 0.2);
});
