// The model's own tokenizer and chat template give what the reference libraries give: test/fixtures/hf-models/
// reference-tokenizer.json holds Hugging Face `tokenizers` (Rust) ids of texts, and transformers' own jinja2 rendering
// of three chat templates (the fixture's ChatML, a Llama 3 header template, a Qwen2.5 template with a default system
// message) with the ids of that text (make_reference_tokenizer.py, run once by a developer). HfTokenizer, through
// @huggingface/tokenizers and @huggingface/jinja, must match each text and id exactly.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { HfTokenizer, type ChatMessage } from '../../../model/hf-tokenizer.js';
import { HF_FIXTURES, fixtureDir } from './fixtures.js';

interface Reference {
  model: string;
  libraries: Record<string, string>;
  texts: Array<{ text: string; ids: number[] }>;
  chats: Array<{ template: string; conversation: string; chatTemplate: string; messages: ChatMessage[]; text: string; ids: number[] }>;
}
const REF = JSON.parse(readFileSync(join(HF_FIXTURES, 'reference-tokenizer.json'), 'utf8')) as Reference;

async function tokenizerWith(template?: string): Promise<HfTokenizer> {
  const dir = fixtureDir(REF.model);
  const config = JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  if (template !== undefined) config.chat_template = template;
  return HfTokenizer.fromFiles(new Map([['tokenizer.json', await readFile(join(dir, 'tokenizer.json'), 'utf8')], ['tokenizer_config.json', JSON.stringify(config)]]));
}

t.test('the tokenizer and chat templates match the reference libraries', async (t) => {
  t.test(`texts encode as tokenizers ${REF.libraries.tokenizers} encodes them`, async (t) => {
    const tok = await tokenizerWith();
    for (const r of REF.texts) t.same(tok.encode(r.text, true), r.ids, JSON.stringify(r.text));
  });

  t.test(`chat templates render as transformers ${REF.libraries.transformers} renders them`, async (t) => {
    for (const r of REF.chats) {
      const tok = await tokenizerWith(r.chatTemplate);
      t.equal(tok.applyChatTemplate(r.messages), r.text, `${r.template}, ${r.conversation}: the text`);
      t.same(tok.encodeChat(r.messages), r.ids, `${r.template}, ${r.conversation}: the ids`);
    }
  });
});
