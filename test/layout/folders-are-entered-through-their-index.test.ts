// Folders are rooms: a folder with an index.ts is entered from outside through that index, never by reaching for one
// of its files, so a folder's index.ts is the whole of what the rest of the code may use.
// Three deliberate exceptions, each for a reason docs/architecture.md gives:
// - inside actors/, the roles and the loop kernel (actors/loop/) import each other's modules directly: the loop's
//   options aggregate the roles' options, so entering through indexes there would make import cycles;
// - a dynamic import() is a deliberate lazy load of one module (e.g. `spade env` loads only the sandbox's CLI);
// - a worker thread's entry file (`*worker.ts`) imports only the few modules it runs, not the room's whole index;
// runtime/ has no index: it is the bottom layer of building blocks, each entered by its own module.
import t from 'tap';
import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import ts from 'typescript';
import { repoPath } from '../../runtime/paths.js';
import { lineOf, parseSource, sourceFiles } from '../helpers/source-files.js';

const SOURCE_DIRS = ['app', 'actors', 'corpus', 'dashboard', 'eval', 'experiment', 'model', 'runtime', 'sandbox', 'scripts', 'warmstart', 'weight-sync', 'cluster.config.ts'];

/** Static imports and re-exports (not `import()`), with their lines. */
function staticImports(sf: ts.SourceFile): Array<{ specifier: string; line: number }> {
  const out: Array<{ specifier: string; line: number }> = [];
  for (const node of sf.statements)
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push({ specifier: node.moduleSpecifier.text, line: lineOf(node) });
  return out;
}

function roomOf(file: string): string | null {
  const dir = posix.dirname(file);
  return existsSync(repoPath(dir, 'index.ts')) ? dir : null;
}

t.test('every folder with an index.ts is entered through it', async (t) => {
  const files = sourceFiles(SOURCE_DIRS);
  t.ok(files.includes('model/decoder.ts') && files.includes('actors/loop/index.ts'), 'the scan sees the sources');
  const offending: string[] = [];
  for (const file of files) {
    if (/(^|\/)[a-z-]*worker\.ts$/.test(file)) continue;
    const dir = posix.dirname(file);
    for (const { specifier, line } of staticImports(parseSource(file))) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.normalize(posix.join(dir, specifier)).replace(/\.js$/, '.ts');
      const room = roomOf(target);
      if (room === null || posix.basename(target) === 'index.ts') continue;
      if (`${dir}/`.startsWith(`${room}/`)) continue; // inside the room
      if (dir.startsWith('actors') && room.startsWith('actors')) continue; // one layer: see above
      offending.push(`${file}:${line} imports ${specifier} (enter ${room}/ through ${room}/index.ts)`);
    }
  }
  t.same(offending, [], 'import the room\'s index.js and export what is needed from it');
});
