// Every test file holds one top-level behaviour (a `t.test` not inside another; a table-driven loop counts once),
// named by its file. The counting is scripts/test-behaviours.ts.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { testFiles, topLevelBehaviours } from '../../scripts/test-behaviours.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

t.test('no test file holds more than one top-level behaviour', async (t) => {
  const files = testFiles(join(root, 'test')).map((f) => relative(root, f));
  t.ok(files.length > 100, `found the test sources (${files.length})`);
  const offenders = files
    .map((f) => ({ file: f, behaviours: topLevelBehaviours(join(root, f)) }))
    .filter((c) => c.behaviours.length > 1);
  t.same(offenders, [], 'split these into one file per behaviour');
});
