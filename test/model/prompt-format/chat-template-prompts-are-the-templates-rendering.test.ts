// A Hugging Face model with a chat template gets its designer and agent prompts through that template: the ids are
// those of @huggingface/jinja's own rendering of the system / user / assistant messages (with the generation prompt),
// and the policy service, loaded from the directory, stops sampling on the template's end-of-turn id.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { agentPrompt, designerPrompt, CONTRACT_BRIEF, PARENT_INTRO, memoryText } from '../../../actors/loop/prompts.js';
import { PolicyService } from '../../../actors/loop/policy/policy-service.js';
import { unpackInts } from '../../../actors/loop/packed.js';
import { loadModel } from '../../../model/load-model.js';
import { HfTokenizer } from '../../../model/hf-tokenizer.js';
import { promptFormat } from '../../../model/prompt-format.js';
import { TINY_POLICY } from '../../actors/loop/policy/tiny-loop.js';
import { hfFixture, hfFixtureCopy } from '../../helpers/hf-fixture.js';

t.setTimeout(120_000);

const DIR = hfFixture('qwen2-f32-tied');

async function reference(): Promise<{ render: (messages: Array<{ role: string; content: string }>) => string; tok: HfTokenizer }> {
  const config = JSON.parse(await readFile(join(DIR, 'tokenizer_config.json'), 'utf8')) as { chat_template: string; eos_token: string };
  const template = new Template(config.chat_template);
  const m = await loadModel(DIR);
  return { render: (messages) => template.render({ messages, add_generation_prompt: true, eos_token: config.eos_token }), tok: m.codec as HfTokenizer };
}

t.test('chat template prompts are the templates rendering', async (t) => {
  t.test('agent prompts are the template rendering of system / user / assistant turns', async (t) => {
    const { render, tok } = await reference();
    const f = promptFormat(tok);
    t.equal(f.kind, 'chat');
    const history = [{ observation: 'Total 5.', action: '3' }, { observation: 'Total 8.', action: '9' }];
    const ids = agentPrompt(f, { description: 'Reach the target.', hint: 'Add nine.', history, observation: 'Total 17.', maxPromptTokens: 10_000 });
    const text = render([
      { role: 'system', content: 'Reach the target.\n\nHint: Add nine.' },
      { role: 'user', content: 'Total 5.' }, { role: 'assistant', content: '3' },
      { role: 'user', content: 'Total 8.' }, { role: 'assistant', content: '9' },
      { role: 'user', content: 'Total 17.' },
    ]);
    t.match(text, /<\|im_start\|>assistant\n$/, 'the rendering ends where the assistant speaks');
    t.same(ids, tok.encode(text), 'the ids are the rendering, encoded');
    t.ok(ids.includes(tok.encode('<|im_start|>')[0]!) && ids.includes(2), 'the template\'s special tokens are single ids'); // the fixture's 48 ids spell little else

    // Over budget, the oldest exchange goes first, and the rest is still a rendering of whole turns.
    const short = agentPrompt(f, { description: 'Reach the target.', history, observation: 'Total 17.', maxPromptTokens: ids.length - 20 });
    t.same(short, tok.encode(render([{ role: 'system', content: 'Reach the target.' }, { role: 'user', content: 'Total 8.' }, { role: 'assistant', content: '9' }, { role: 'user', content: 'Total 17.' }])));
  });

  t.test('designer prompts: the contract is the system message, document, memory and parent the user message', async (t) => {
    const { render, tok } = await reference();
    const mem = { name: 'sum', family: 'arith', description: 'Add up.', regret: 0.5, returnHint: 1, returnNoHint: 0.5 };
    const ids = designerPrompt(tok, { doc: 'Tides rise.', memory: [mem], parent: 'export const spec = {};' });
    const text = render([
      { role: 'system', content: CONTRACT_BRIEF },
      { role: 'user', content: `Document:\nTides rise.\n\n${memoryText(mem)}\n\n${PARENT_INTRO}\nexport const spec = {};` },
    ]);
    t.same(ids, tok.encode(text));
  });

  t.test('the policy service loads the directory and stops on the end-of-turn id', async (t) => {
    const dir = await hfFixtureCopy(t, 'qwen2-f32-tied', { contextLength: 512 });
    const policy = await PolicyService.open({ policy: { ...TINY_POLICY, checkpoint: dir, missingCheckpoint: 'fail', seed: 3 } });
    t.teardown(() => policy.close());
    const f = policy.format;
    t.equal(f.kind, 'chat');
    const imEnd = (policy.format as { stopIds: readonly number[] }).stopIds;
    t.same([...imEnd], [2], '<|im_end|> (eos_token) is the stop');
    const prompt = agentPrompt(f, { description: 'Say a number.', history: [], observation: 'Go.', maxPromptTokens: 200 });
    // A random tiny model spreads its mass over 48 ids: of 8 samples of up to 200 tokens, some end at <|im_end|>.
    const samples = await Promise.all(Array.from({ length: 8 }, () => policy.sample(prompt, { maxTokens: 200, temperature: 1, topP: 1, role: 'agent' })));
    const stopped = samples.filter((s) => s.finishReason === 'stop');
    t.ok(stopped.length > 0, `${stopped.length} of 8 samples stopped`);
    for (const s of samples) {
      const tokens = [...unpackInts(s.tokens)];
      t.same([...unpackInts(s.promptTokens)], prompt, 'the prompt is the template rendering');
      if (s.finishReason === 'stop') {
        t.equal(tokens.at(-1), 2, 'a stopped sample ends with <|im_end|> (kept in the tokens the learner trains on)');
        t.notOk(tokens.slice(0, -1).includes(2), 'and has no earlier one');
        t.equal(s.text, f.decode(tokens.slice(0, -1)), 'the text leaves it out');
      } else t.notOk(tokens.includes(2), 'a sample cut at the length never saw the stop');
    }
  });
});
