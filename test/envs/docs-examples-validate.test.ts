// docs/environments.md stays true: its full example is the shipped sum-to-target, the prompt version fits its
// ~60-line budget between its markers and documents every kit helper, and the example inside the prompt version validates in the real sandbox.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { SandboxPool } from '../../sandbox/index.js';
import { repoPath } from '../../runtime/paths.js';
import { kitContext } from './kit-vm.js';

const doc = readFileSync(repoPath('docs', 'environments.md'), 'utf8');
const prompt = doc.split('<!-- prompt:begin -->')[1]?.split('<!-- prompt:end -->')[0] ?? '';

t.test('the full example is the library sum-to-target, verbatim', async (t) => {
  const example = doc.split('## Example')[1]?.split('```js\n')[1]?.split('```')[0];
  t.equal(example, readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8'));
});

t.test('the prompt version is delimited and short', async (t) => {
  const lines = prompt.trim().split('\n').length;
  t.ok(lines > 20 && lines <= 60, `${lines} lines`);
  const names = kitContext(1).run('Object.keys(kit)') as string[];
  t.ok(names.length >= 10);
  for (const name of names) {
    t.ok(prompt.includes(`kit.${name}(`), `the prompt version documents kit.${name}`);
    t.ok(doc.split('## The kit')[1]?.includes(`kit.${name}(`), `the kit table documents kit.${name}`);
  }
});

t.test('the example in the prompt version validates', async (t) => {
  const code = prompt.split('Example:\n')[1] ?? '';
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 200, wallClockKillMs: 5000 });
  t.teardown(() => pool.close());
  const r = await pool.validate(code);
  t.ok(r.ok, r.failed ? `${r.failed}: ${r.stages[r.stages.length - 1]?.detail}` : 'valid');
  t.equal(r.stats.oracleMean, 1);
});
