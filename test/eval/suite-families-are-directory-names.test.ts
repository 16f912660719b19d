// A suite is every *.js under a directory, recursively, in path order; a module's family is the directory holding it;
// kit.js is skipped; a missing or empty directory is a SuiteError naming it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { caught } from '../model/tokenizer/helpers.js';
import { isSuiteError } from '../../eval/errors.js';
import { loadSuite } from '../../eval/suite.js';

const failsWith = (fn: () => unknown, ok: (e: unknown) => boolean): boolean => ok(caught(fn));

t.test('families, order, kit skipped, bad directories', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eval-suite-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'games', 'deep'), { recursive: true });
  await mkdir(join(dir, 'tools'));
  for (const f of ['games/b.js', 'games/deep/a.js', 'tools/x.js', 'tools/kit.js', 'tools/notes.md', 'top.js']) await writeFile(join(dir, f), `// ${f}`);
  const s = loadSuite(dir);
  t.same(s.modules.map((m) => [m.file, m.family]), [['games/b.js', 'games'], ['games/deep/a.js', 'deep'], ['tools/x.js', 'tools'], ['top.js', s.dir.split('/').pop()]]);
  t.equal(s.modules[0]!.code, '// games/b.js');
  t.ok(failsWith(() => loadSuite(join(dir, 'missing')), (e) => isSuiteError(e) && e.dir === join(dir, 'missing')));
  await mkdir(join(dir, 'empty'));
  t.ok(failsWith(() => loadSuite(join(dir, 'empty')), (e) => isSuiteError(e) && /no environment module/.test((e as Error).message)));
});
