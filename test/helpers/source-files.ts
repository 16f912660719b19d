// Test helper: the TypeScript sources of the repository (not dist/, not node_modules), parsed on demand, for tests
// that check the code's structure (which layer imports which, where names are spelled).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { repoPath } from '../../runtime/paths.js';

/** Repository-relative paths (forward slashes) of every .ts file under `dirs`, sorted. */
export function sourceFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const name of readdirSync(abs)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const p = join(abs, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(repoPath(), p).split('\\').join('/'));
    }
  };
  for (const d of dirs) {
    const abs = repoPath(d);
    if (statSync(abs, { throwIfNoEntry: false })?.isDirectory()) walk(abs);
    else if (d.endsWith('.ts')) out.push(d);
  }
  return out.sort();
}

export function parseSource(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(repoPath(file), 'utf8'), ts.ScriptTarget.ES2022, true);
}

/** 1-based line of `node` in its file. */
export function lineOf(node: ts.Node): number {
  const sf = node.getSourceFile();
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

/** Every module specifier the file imports or re-exports, static or `import('…')` with a literal, with its line. */
export function importsOf(sf: ts.SourceFile): Array<{ specifier: string; line: number }> {
  const out: Array<{ specifier: string; line: number }> = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push({ specifier: node.moduleSpecifier.text, line: lineOf(node) });
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]))
      out.push({ specifier: node.arguments[0].text, line: lineOf(node) });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}
