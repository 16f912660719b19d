// Layers point one way: actors/ (the roles and the loop kernel) sits above runtime/, model/ and sandbox/, and below
// the tools that run or read a loop (eval, experiment, dashboard, probe) and the composition root (app/), which
// wires them together. No file in actors/ imports one of those rooms, statically, as a type, or with import().
import t from 'tap';
import { posix } from 'node:path';
import { importsOf, parseSource, sourceFiles } from '../helpers/source-files.js';

const ABOVE = ['app', 'eval', 'experiment', 'dashboard', 'probe', 'scripts', 'bench'];

t.test('no actors/ source imports a room above it', async (t) => {
  const files = sourceFiles(['actors']);
  t.ok(files.includes('actors/evaluator/copies.ts'), 'the scan sees the actors sources');
  const offending: string[] = [];
  for (const file of files)
    for (const { specifier, line } of importsOf(parseSource(file))) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      const room = target.split('/')[0]!;
      if (ABOVE.includes(room)) offending.push(`${file}:${line} imports ${specifier}`);
    }
  t.same(offending, [], 'inject what actors/ needs from above through the composition root (app/roles.ts)');
  const root = sourceFiles(['app']);
  t.ok(root.includes('app/main.ts') && root.includes('app/roles.ts'), 'the composition root is app/, outside actors/');
  t.notOk(files.includes('actors/main.ts') || files.includes('actors/roles.ts'), 'actors/ holds the roles, not their wiring');
});
