// docs/environments.md stays true: the prompt version between its markers fits its ~60-line budget and, like the
// kit table, documents every kit helper.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';
import { kitContext } from './kit-vm.js';

const doc = readFileSync(repoPath('docs', 'environments.md'), 'utf8');

const prompt = doc.split('<!-- prompt:begin -->')[1]?.split('<!-- prompt:end -->')[0] ?? '';

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
