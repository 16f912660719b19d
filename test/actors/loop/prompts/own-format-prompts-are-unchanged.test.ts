// The project's own prompt format is unchanged by the prompt-format abstraction: designer and agent prompts are
// token-identical to the builders as they were before it (copied here verbatim as the reference), for fixed inputs
// that cover memory, parents, hints, long histories cut to the budget, and a task longer than the budget.
import t from 'tap';
import { CONTRACT_BRIEF, DEFAULT_DOC_CHARS, PARENT_INTRO, agentPrompt, designerPrompt, endOfTurn, memoryText, stopIds, type AgentPromptInput, type DesignerPromptInput } from '../../../../actors/loop/prompts.js';
import { spadePromptFormat } from '../../../../model/prompt-format.js';
import { loadTokenizer, type Tokenizer } from '../../../../model/tokenizer.js';

// ---- the builders before model/prompt-format.ts (commit 716233b), verbatim ----
function oldDesignerPrompt(tok: Tokenizer, input: DesignerPromptInput): number[] {
  const doc = input.doc.slice(0, input.docChars ?? DEFAULT_DOC_CHARS);
  const ids = [tok.specialId('<|bos|>'), ...tok.encodeTurn('system', CONTRACT_BRIEF), ...tok.encodeTurn('doc', doc)];
  for (const m of input.memory) ids.push(...tok.encodeTurn('system', memoryText(m)));
  if (input.parent !== undefined) ids.push(...tok.encodeTurn('system', `${PARENT_INTRO}\n${input.parent}`));
  ids.push(tok.specialId('<|designer|>'));
  return ids;
}

function oldAgentPrompt(tok: Tokenizer, input: AgentPromptInput): number[] {
  const head = [tok.specialId('<|bos|>'), ...tok.encodeTurn('system', input.description)];
  if (input.hint !== undefined) head.push(...tok.encodeTurn('hint', input.hint));
  const tail = [...tok.encodeTurn('env', input.observation), tok.specialId('<|agent|>')];
  const turns = input.history.map((h) => [...tok.encodeTurn('env', h.observation), ...tok.encodeTurn('agent', h.action)]);
  let budget = input.maxPromptTokens - head.length - tail.length;
  let first = turns.length;
  while (first > 0 && turns[first - 1]!.length <= budget) budget -= turns[--first]!.length;
  const ids = [...head, ...turns.slice(first).flat(), ...tail];
  return ids.length > input.maxPromptTokens ? [tok.specialId('<|bos|>'), ...ids.slice(ids.length - input.maxPromptTokens + 1)] : ids;
}
// ---- end of the reference ----

const memory = [
  { name: 'sum-to-target', family: 'arith', description: 'Reach the target exactly by adding numbers 1..9.', regret: 0.25, returnHint: 0.8, returnNoHint: 0.55 },
  { name: 'guess', family: 'search', description: 'x'.repeat(200), regret: 0, returnHint: 0, returnNoHint: 0, evaluated: false },
];
const parent = 'export const spec = { name: "p", description: "d", hint: "h", maxTurns: 4 };\nexport default class Env { reset(s) { return { observation: "o" }; } }';
const history = Array.from({ length: 12 }, (_, i) => ({ observation: `Total ${i * 7}. Target 91.`, action: String((i % 9) + 1) }));

t.test('own format prompts are unchanged', async (t) => {
  for (const tok of [loadTokenizer(), loadTokenizer('bytes')]) {
    t.test(`designer prompts (${tok.name})`, async (t) => {
      const cases: DesignerPromptInput[] = [
        { doc: 'A short document about tides.', memory: [] },
        { doc: 'Ocean tides rise and fall. '.repeat(40), memory, docChars: 300 },
        { doc: 'Ocean tides rise and fall. '.repeat(40), memory, parent },
        { doc: '', memory: memory.slice(0, 1), docChars: 0, parent: '' },
      ];
      for (const [i, c] of cases.entries()) {
        t.same(designerPrompt(tok, c), oldDesignerPrompt(tok, c), `case ${i} through the tokenizer`);
        t.same(designerPrompt(spadePromptFormat(tok), c), oldDesignerPrompt(tok, c), `case ${i} through its format`);
      }
    });

    t.test(`agent prompts (${tok.name})`, async (t) => {
      const cases: AgentPromptInput[] = [
        { description: 'Say a number.', history: [], observation: 'Go.', maxPromptTokens: 300 },
        { description: 'Reach the target.', hint: 'Add 9 while more than 9 remains.', history, observation: 'Total 84.', maxPromptTokens: 1000 },
        ...[40, 60, 90, 130, 200].map((n) => ({ description: 'Reach the target.', hint: 'Add 9.', history, observation: 'Total 84.', maxPromptTokens: n })),
        { description: 'A very long task. '.repeat(30), history, observation: 'Total 1.', maxPromptTokens: 50 },
      ];
      for (const [i, c] of cases.entries()) {
        const want = oldAgentPrompt(tok, c);
        t.same(agentPrompt(tok, c), want, `case ${i} through the tokenizer (${want.length} ids)`);
        t.same(agentPrompt(spadePromptFormat(tok), c), want, `case ${i} through its format`);
      }
    });

    t.test(`stop and end-of-turn ids (${tok.name})`, async (t) => {
      t.equal(endOfTurn(tok), tok.specialId('<|end_turn|>'));
      t.same(stopIds(tok), [tok.specialId('<|end_turn|>'), tok.specialId('<|eos|>')], 'the policy service stops where it did');
    });
  }
});
