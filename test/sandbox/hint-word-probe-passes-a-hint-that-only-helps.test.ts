// The hint-leak stage's hint-word probe passes a per-instance hint that helps without being the answer (the
// answer's first digit): no constant action taken from it wins, and the report carries the probe's score.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { SandboxPool } from '../../sandbox/index.js';

const fixture = (name: string): string => readFileSync(repoPath('test', 'fixtures', 'hostile', `${name}.js`), 'utf8');
const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
t.teardown(() => pool.close());

t.test('a hint that helps without being the answer passes', async (t) => {
  const r = await pool.validate(fixture('policy-valid-instance-hint'), { seeds: 8 });
  t.ok(r.ok, JSON.stringify(r.stages.find((s) => !s.ok)));
  t.equal(r.stats.hintProbeMean, 0);
  t.match(r.stages.find((s) => s.stage === 'hint-leak')?.detail, /best hint-word agent .* 0\.000 < 0\.2/);
});
