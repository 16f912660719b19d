// Actors keep no timer of their own (issue 25): a wait, a periodic beat, a retry's backoff or a delayed event comes
// from runtime/ (delay.ts, beat.ts, retry.ts, logic-driver.ts), so each is written, stopped and tested once. No file in
// actors/ calls or names Node's timer functions, or imports node:timers.
import t from 'tap';
import ts from 'typescript';
import { importsOf, lineOf, parseSource, sourceFiles } from '../helpers/source-files.js';

const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate']);
const TIMER_MODULES = new Set(['timers', 'timers/promises', 'node:timers', 'node:timers/promises']);

t.test('no actors/ source keeps a timer of its own', async (t) => {
  const files = sourceFiles(['actors']);
  t.ok(files.includes('actors/learner/learner-lock.ts'), 'the scan sees the actors sources');
  const offending: string[] = [];
  for (const file of files) {
    const sf = parseSource(file);
    for (const { specifier, line } of importsOf(sf)) if (TIMER_MODULES.has(specifier)) offending.push(`${file}:${line} imports ${specifier}`);
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && TIMERS.has(node.text)) offending.push(`${file}:${lineOf(node)} uses ${node.text}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  t.same(offending, [], 'wait with runtime/delay.ts, beat with runtime/beat.ts, retry with runtime/retry.ts, or send a delayed event through the logic driver');
});
