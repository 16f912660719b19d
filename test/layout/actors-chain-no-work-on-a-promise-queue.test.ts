// Actors keep no mailbox of their own (issue 25): work is serialised by the logic driver (runtime/logic-driver.ts),
// not by a promise that an actor chains each call onto (`run = this.queue.then(work); this.queue = run.catch(…)`).
// A name (a variable or a `this.` field) is a queue when the file both chains on it (`q.then(…)`) and assigns it a
// `.then` / `.catch` / `.finally` chain.
import t from 'tap';
import ts from 'typescript';
import { lineOf, parseSource, sourceFiles } from '../helpers/source-files.js';

const CHAINS = new Set(['then', 'catch', 'finally']);

/** `q` for `q` and `this.q`, else null. */
function nameOf(e: ts.Expression): string | null {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) return e.name.text;
  return null;
}

/** Whether `e` (parentheses and `as` aside) is a call of `.then`, `.catch` or `.finally`. */
function isChain(e: ts.Expression): boolean {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) e = e.expression;
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && CHAINS.has(e.expression.name.text);
}

t.test('no actors/ source chains its work on a promise used as a queue', async (t) => {
  const files = sourceFiles(['actors']);
  t.ok(files.includes('actors/learner/group/trainer.ts'), 'the scan sees the actors sources');
  const offending: string[] = [];
  for (const file of files) {
    const sf = parseSource(file);
    const chainedOn = new Set<string>();
    const assigned = new Map<string, number>();
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'then') {
        const n = nameOf(node.expression);
        if (n !== null) chainedOn.add(n);
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && isChain(node.right)) {
        const n = nameOf(node.left);
        if (n !== null && !assigned.has(n)) assigned.set(n, lineOf(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    for (const [n, line] of assigned) if (chainedOn.has(n)) offending.push(`${file}:${line} chains work on ${n}`);
  }
  t.same(offending, [], 'send the work to the logic driver (runtime/logic-driver.ts): its mailbox handles one event at a time');
});
