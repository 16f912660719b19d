// Counts the top-level behaviours of each test file: the `t.test(` / `tap.test(` / `test(` calls that are not inside
// another one. A call inside a loop counts once (one table-driven behaviour). Prints the files with two or more, then
// one JSON line of totals. Usage: node dist/scripts/test-behaviours.js [dir ...]  (default: test)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'fixtures' && name !== 'node_modules') out.push(...testFiles(path));
    } else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

function isTestCall(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression.getText();
  return callee === 'test' || /^(t|tap)\.test$/.test(callee);
}

/** The `test` calls in `path` that no other `test` call encloses. */
export function topLevelBehaviours(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (isTestCall(node)) {
      const first = node.arguments[0];
      names.push(first ? first.getText().slice(0, 80) : '(unnamed)');
      return; // sub-tests inside it belong to this behaviour
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function main(): void {
  const dirs = process.argv.slice(2);
  const files = (dirs.length ? dirs : ['test']).flatMap(testFiles);
  const counts = files.map((file) => ({ file, behaviours: topLevelBehaviours(file) }));
  for (const { file, behaviours } of counts.filter((c) => c.behaviours.length >= 2).sort((a, b) => b.behaviours.length - a.behaviours.length)) {
    console.log(`${String(behaviours.length).padStart(3)}  ${file}`);
  }
  const atLeast = (n: number): number => counts.filter((c) => c.behaviours.length >= n).length;
  console.log(JSON.stringify({ files: files.length, twoOrMore: atLeast(2), threeOrMore: atLeast(3) }));
}

if (process.argv[1]?.endsWith('test-behaviours.js')) main();
