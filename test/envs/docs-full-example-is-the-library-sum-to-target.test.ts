// docs/environments.md stays true: its full example is the shipped sum-to-target, verbatim.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { repoPath } from '../../runtime/paths.js';

const doc = readFileSync(repoPath('docs', 'environments.md'), 'utf8');

t.test('the full example is the library sum-to-target, verbatim', async (t) => {
  const example = doc.split('## Example')[1]?.split('```js\n')[1]?.split('```')[0];
  t.equal(example, readFileSync(repoPath('envs', 'library', 'reasoning', 'sum-to-target.js'), 'utf8'));
});
