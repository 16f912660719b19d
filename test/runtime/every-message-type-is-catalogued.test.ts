// Every message type defined anywhere in the sources is in the catalog the CLI hands the runtime (the runtime's own
// types plus the loop's actors/loop/catalog.ts), so receivers of any subject (`spade tail`) decode all of them.
import t from 'tap';
import ts from 'typescript';
import { SPADE_APP } from '../../app/main.js';
import { RUNTIME_MESSAGES } from '../../runtime/message-types.js';
import { lineOf, parseSource, sourceFiles } from '../helpers/source-files.js';

/** `defineMessage('name', …)` calls in the sources, as name → where. */
function definedMessages(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of sourceFiles(['actors', 'dashboard', 'model', 'sandbox', 'runtime', 'corpus', 'scripts', 'eval', 'experiment', 'warmstart', 'weight-sync'])) {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineMessage') {
        const name = node.arguments[0];
        out.set(name && ts.isStringLiteralLike(name) ? name.text : `<computed name at ${file}:${lineOf(node)}>`, `${file}:${lineOf(node)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(parseSource(file));
  }
  return out;
}

t.test('every defineMessage is in the runtime catalog or the loop catalog, once', async (t) => {
  const defined = definedMessages();
  t.ok(defined.has('traj.labeled') && defined.has('dead-letter'), 'the scan sees loop and runtime messages');
  const catalogued = [...RUNTIME_MESSAGES, ...SPADE_APP.catalog].map((m) => m.type);
  t.same(catalogued.filter((x, i) => catalogued.indexOf(x) !== i), [], 'no type is catalogued twice');
  const missing = [...defined].filter(([name]) => !catalogued.includes(name)).map(([name, where]) => `${name} (${where})`);
  t.same(missing, [], 'add these to actors/loop/catalog.ts (loop) or RUNTIME_MESSAGES (runtime/message-types.ts)');
  t.same(catalogued.filter((name) => !defined.has(name)), [], 'every catalogued type is defined in the sources');
});
