// Layers point one way: runtime/ is the generic cluster runtime and never imports from actors/ (the application).
// The loop's roles, message catalog and commands reach the runtime by injection from app/main.ts.
import t from 'tap';
import { posix } from 'node:path';
import { importsOf, parseSource, sourceFiles } from '../helpers/source-files.js';

/** Files not yet converted, each with what it still imports (none left; a listed file that no longer imports actors/ fails). */
const NOT_YET_CONVERTED: Readonly<Record<string, string>> = {};

t.test('no runtime/ source imports from actors/', async (t) => {
  const files = sourceFiles(['runtime']);
  t.ok(files.includes('runtime/host.ts'), 'the scan sees the runtime sources');
  const offending: string[] = [];
  const allowedButClean: string[] = [];
  for (const file of files) {
    const hits = importsOf(parseSource(file)).filter((i) => i.specifier.startsWith('.') && posix.normalize(posix.join(posix.dirname(file), i.specifier)).startsWith('actors/'));
    if (Object.hasOwn(NOT_YET_CONVERTED, file)) {
      if (hits.length === 0) allowedButClean.push(file);
      continue;
    }
    for (const h of hits) offending.push(`${file}:${h.line} imports ${h.specifier}`);
  }
  t.same(offending, [], 'runtime/ must not import actors/: inject what it needs from the composition root (app/main.ts) instead');
  t.same(allowedButClean, [], 'these files no longer import actors/: remove them from NOT_YET_CONVERTED');
});
