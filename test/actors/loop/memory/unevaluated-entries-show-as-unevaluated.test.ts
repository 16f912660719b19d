// A memory entry the evaluator has not scored yet is shown to the designer as "unevaluated", not as stats of zero
// (which read as measured); evaluated entries and the warm start's lines (no evaluated field) show their numbers.
import t from 'tap';
import { memoryLine } from '../../../../actors/designer/designer-prompt.js';
import { memoryText } from '../../../../actors/loop/prompts.js';
import { entry } from './memory-entries.js';

t.test('unevaluated entries say so', async (t) => {
  const fresh = memoryText(memoryLine(entry('u', 'games', 'fresh')));
  t.equal(fresh, 'fresh (games) unevaluated: fresh task');
  const scored = memoryText(memoryLine(entry('s', 'tools', 'pay-bill', { regret: 0, returnHint: 0, returnNoHint: 0 })));
  t.equal(scored, 'pay-bill (tools) regret 0.00 hint 0.00 nohint 0.00: pay-bill task', 'measured zeros stay numbers');
  const warm = memoryText({ name: 'nim', family: 'games', description: 'Take stones.', regret: 0.25, returnHint: 0.75, returnNoHint: 0.5 });
  t.equal(warm, 'nim (games) regret 0.25 hint 0.75 nohint 0.50: Take stones.', 'the warm start\'s lines are unchanged');
});
