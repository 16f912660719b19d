// docs/environments.md stays true: the example inside the prompt version validates in the real sandbox.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { SandboxPool } from '../../sandbox/index.js';
import { repoPath } from '../../runtime/paths.js';

const doc = readFileSync(repoPath('docs', 'environments.md'), 'utf8');

const prompt = doc.split('<!-- prompt:begin -->')[1]?.split('<!-- prompt:end -->')[0] ?? '';

t.test('the example in the prompt version validates', async (t) => {
  const code = prompt.split('Example:\n')[1] ?? '';
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000 });
  t.teardown(() => pool.close());
  const r = await pool.validate(code);
  t.ok(r.ok, r.failed ? `${r.failed}: ${r.stages[r.stages.length - 1]?.detail}` : 'valid');
  t.equal(r.stats.oracleMean, 1);
});
