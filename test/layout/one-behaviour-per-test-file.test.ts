// Every test file holds one top-level behaviour (a `t.test` not inside another; a table-driven loop counts once),
// named by its file. The counting is scripts/test-behaviours.ts; the allowlist below names the files not yet split.
import t from 'tap';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { testFiles, topLevelBehaviours } from '../../scripts/test-behaviours.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

// Not yet split (issue 9, item 6): each entry is a file with two or more top-level behaviours. Remove an entry when
// its file is split; never add one.
const notYetSplit = new Set([
  'test/model/sampler/thread-sampler-matches-the-sampler.test.ts',
]);

t.test('no test file holds more than one top-level behaviour, outside the not-yet-split list', async (t) => {
  const files = testFiles(join(root, 'test')).map((f) => relative(root, f));
  t.ok(files.length > 100, `found the test sources (${files.length})`);
  const offenders = files
    .filter((f) => !notYetSplit.has(f))
    .map((f) => ({ file: f, behaviours: topLevelBehaviours(join(root, f)) }))
    .filter((c) => c.behaviours.length > 1);
  t.same(offenders, [], 'split these into one file per behaviour');
  const listedButGone = [...notYetSplit].filter((f) => !files.includes(f) || topLevelBehaviours(join(root, f)).length < 2);
  t.same(listedButGone, [], 'remove these from the not-yet-split list');
});
