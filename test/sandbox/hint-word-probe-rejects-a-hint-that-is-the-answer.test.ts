// The hint-leak stage's hint-word probe: a per-instance hint that is the answer ("The code is 4711.") passes the
// verbatim check (the oracle searches, so its action sequence is not in the hint) but an agent that plays the
// hint's first number every turn wins, so validation fails at hint-leak with EnvHintLeak naming that agent.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { SandboxPool } from '../../sandbox/index.js';

const fixture = (name: string): string => readFileSync(repoPath('test', 'fixtures', 'hostile', `${name}.js`), 'utf8');
const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5_000 });
t.teardown(() => pool.close());

t.test('a hint that is the answer is rejected by the probe', async (t) => {
  const r = await pool.validate(fixture('policy-hint-word-leak'), { seeds: 8 });
  t.equal(r.failed, 'hint-leak');
  const stage = r.stages.find((s) => !s.ok)!;
  t.equal(stage.error?.name, 'EnvHintLeak');
  t.equal(stage.error?.code, 'ENV_HINT_LEAK');
  // The whole hint ("The code is 4711.") parses as its number too; the first of the tied agents is named.
  t.match(stage.detail, /the whole hint as a constant action scores 1\.000 ≥ 0\.2: the hint hands over the answer/);
  t.match(stage.error?.value, /^The code is \d{4}\.$/, 'the winning action is named');
  t.equal(r.stats.hintProbeMean, 1);
  t.ok(r.stages.find((s) => s.stage === 'oracle')?.ok, 'the oracle stage passed: the environment itself is winnable');
});
