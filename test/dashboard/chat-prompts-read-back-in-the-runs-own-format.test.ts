// The dashboard and `spade report` read prompts back in the run's own prompt format: when the policy is a Hugging Face
// directory (or a SPADE checkpoint carrying its tokenizer), through its chat template (or plain format without one),
// an agent turn's observation and hint and a designer prompt's document and parent come back exactly as given, also
// with memory lines sharing the document's message and for a prompt cut at the front.
import t from 'tap';
import { agentPrompt, designerPrompt, packInts, validateLoopOptions } from '../../actors/loop/index.js';
import { HfTokenizer, initParameters, loadModelCodec, parameterShapes, saveCheckpoint, validateDecoderConfig } from '../../model/index.js';
import { agentView, designerView, promptTurns } from '../../dashboard/prompt-text.js';
import { runPromptFormat } from '../../dashboard/bus-source.js';
import { byteLevelHfDir, CHATML_TEMPLATE } from '../helpers/hf-fixture.js';
import { tempDir } from '../helpers/nats.js';

const history = [{ observation: 'Guess a number from 1 to 74.', action: '37' }, { observation: '37: higher.\n\nTry again.', action: '50' }];
const agentInput = { description: 'Find my number.', hint: 'It is between 43 and 64.', history, observation: '50: lower. 4 left.', maxPromptTokens: 10_000 };
const parent = 'export const spec = { name: "p" };\n\nexport default class Env {}';
const doc = 'Privilege, n. a right or immunity.\n\nSecond paragraph: 12 (twelve) items.';
const memory = [
  { name: 'sum-to-target', family: 'reasoning', description: 'Reach the target.', regret: 0.25, returnHint: 0.75, returnNoHint: 0.5 },
  { name: 'nim', family: 'games', description: 'Take stones.', regret: 0, returnHint: 0, returnNoHint: 0, evaluated: false },
];

// Llama 3's layout: a system header with fixed text before the system message, trimmed contents, no closing newline.
const LLAMA3_TEMPLATE = "{{- bos_token }}{%- if messages[0]['role'] == 'system' %}{%- set system_message = messages[0]['content']|trim %}{%- set messages = messages[1:] %}{%- else %}{%- set system_message = '' %}{%- endif %}"
  + "{{- '<|start_header_id|>system<|end_header_id|>\\n\\n' }}{{- 'Cutting Knowledge Date: December 2023\\n' }}{{- 'Today Date: 26 Jul 2024\\n\\n' }}{{- system_message }}{{- '<|eot_id|>' }}"
  + "{%- for message in messages %}{{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n'+ message['content'] | trim + '<|eot_id|>' }}{%- endfor %}"
  + "{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{%- endif %}";

const FORMATS = { 'ChatML template': CHATML_TEMPLATE, 'Llama 3 template': LLAMA3_TEMPLATE, 'no template': null } as const;

t.test('chat-format prompts read back through the format of the run', async (t) => {
  for (const [name, template] of Object.entries(FORMATS)) {
    t.test(`a Hugging Face policy (${name}): prompts read back through its format`, async (t) => {
      const dir = await byteLevelHfDir(t, template);
      const f = await runPromptFormat(validateLoopOptions({ policy: { checkpoint: dir } } as never));
      t.equal(f.kind, template === null ? 'plain' : 'chat', `the run's format is the model's (${f.kind})`);
      const hinted = packInts(agentPrompt(f, agentInput));
      t.same(agentView(f, hinted), { observation: '50: lower. 4 left.', hint: 'It is between 43 and 64.' }, 'the last observation and the hint');
      t.same(promptTurns(f, hinted).map((x) => x.role), ['system', 'hint', 'env', 'agent', 'env', 'agent', 'env'], 'the turns in order');
      t.same(promptTurns(f, hinted)[4], { role: 'env', text: '37: higher.\n\nTry again.' }, 'an observation with a blank line in it stays whole');
      const plain = packInts(agentPrompt(f, { ...agentInput, hint: undefined }));
      t.same(agentView(f, plain), { observation: '50: lower. 4 left.', hint: null }, 'no hint in an unhinted prompt');
      // A budget 10 ids short of the prompt without history: the history goes, then the front of the system message.
      const cut = packInts(agentPrompt(f, { ...agentInput, maxPromptTokens: agentPrompt(f, { ...agentInput, history: [] }).length - 10 }));
      t.equal(agentView(f, cut).observation, '50: lower. 4 left.', 'a prompt cut at the front still gives its observation');

      t.same(designerView(f, packInts(designerPrompt(f, { doc, memory, parent }))), { document: doc, parentCode: parent }, 'document and parent, memory lines between them left out');
      t.same(designerView(f, packInts(designerPrompt(f, { doc, memory: [] }))), { document: doc, parentCode: null }, 'no parent: a module from scratch');
    });
  }

  t.test('a SPADE checkpoint of an imported model reads back through the model\'s template', async (t) => {
    const tok = (await loadModelCodec(await byteLevelHfDir(t))) as HfTokenizer;
    const config = validateDecoderConfig({ layers: 1, width: 16, heads: 2, kvHeads: 1, contextLength: 64, vocab: tok.vocabSize });
    const ckpt = `${tempDir(t, 'spade-ckpt-')}/model`;
    await saveCheckpoint(ckpt, { model: { ...config }, params: initParameters(config, 1), shapes: parameterShapes(config), tokenizer: tok, policyVersion: 3, step: 3 });
    const f = await runPromptFormat(validateLoopOptions({ policy: { checkpoint: ckpt } } as never));
    t.equal(f.kind, 'chat');
    t.same(agentView(f, packInts(agentPrompt(f, agentInput))), { observation: '50: lower. 4 left.', hint: 'It is between 43 and 64.' });
  });
});
