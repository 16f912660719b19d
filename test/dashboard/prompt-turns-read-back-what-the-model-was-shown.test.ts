// The trajectory viewer reads a turn's observation and hint, and an environment's document and parent module, back
// from the prompt tokens the model was given: the prompts the agent and designer build (actors/loop/prompts.ts),
// split at their special tokens, give back their texts — even a text that spells a special token's marker.
import t from 'tap';
import { agentPrompt, designerPrompt, packInts } from '../../actors/loop/index.js';
import { loadTokenizer, promptFormat } from '../../model/index.js';
import { agentView, designerView, promptTurns } from '../../dashboard/prompt-text.js';

t.test('prompt turns read back what the model was shown', async (t) => {
  const tok = loadTokenizer();
  const f = promptFormat(tok);
  const pack = (ids: number[]) => packInts(ids);
  const history = [{ observation: 'Guess a number from 1 to 74.', action: '37' }, { observation: '37: higher.', action: '50' }];
  const hinted = agentPrompt(tok, { description: 'Find my number.', hint: 'It is between 43 and 64.', history, observation: '50: lower. <|env|> 4 left.', maxPromptTokens: 400 });
  t.same(agentView(f, pack(hinted)), { observation: '50: lower. <|env|> 4 left.', hint: 'It is between 43 and 64.' }, 'the last observation and the hint, a marker in the text kept as text');
  t.same(agentView(f, pack(agentPrompt(tok, { description: 'Find my number.', history: [], observation: 'Guess.', maxPromptTokens: 400 }))), { observation: 'Guess.', hint: null }, 'no hint in an unhinted prompt');
  t.same(promptTurns(f, pack(hinted)).map((x) => x.role), ['system', 'hint', 'env', 'agent', 'env', 'agent', 'env'], 'the turns in order');

  const parent = 'export const spec = { name: "p" };\nexport default class Env {}';
  const withParent = designerPrompt(tok, { doc: 'Privilege, n. a right or immunity.', memory: [], parent });
  t.same(designerView(f, pack(withParent)), { document: 'Privilege, n. a right or immunity.', parentCode: parent }, 'the document and the parent module');
  t.same(designerView(f, pack(designerPrompt(tok, { doc: '', memory: [] }))), { document: '', parentCode: null }, 'no parent: a module from scratch');
});
