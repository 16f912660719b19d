// `spade model generate --chat` builds the prompt through the model's chat template (tokenizer_config.json, rendered
// by @huggingface/jinja) and stops at its end-of-turn token: the greedy continuation equals an argmax walk over the
// scoring graph from the same templated prompt, and the prompt holds the template's turn markers as special tokens.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { HfTokenizer } from '../../../model/hf-tokenizer.js';
import { modelCommand } from '../../../model/cli-model.js';
import { isUsageError } from '../../../runtime/errors.js';
import { caughtAsync } from '../tokenizer/helpers.js';
import { loadModel } from '../../../model/load-model.js';
import { ModelSession } from '../../../model/session.js';
import { EXPECTED, fixtureDir } from './fixtures.js';
import { spadeCli } from './spade-cli.js';

t.test('chat generation goes through the template and stops at the end-of-turn token', async (t) => {
  const dir = fixtureDir(EXPECTED.text.model);
  const m = await loadModel(dir);
  const tok = m.tokenizer!;
  const messages = [{ role: 'user' as const, content: 'the sea' }];
  const ids = tok.encodeChat!(messages);
  const json = (f: string): Record<string, unknown> => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as Record<string, unknown>;
  const templated = new HfTokenizer(json('tokenizer.json'), json('tokenizer_config.json'));
  const rendered = templated.applyChatTemplate(messages);
  t.equal(rendered, '<|im_start|>user\nthe sea<|im_end|>\n<|im_start|>assistant\n', 'ChatML from the template');
  t.same(ids, templated.encode(rendered), 'the prompt ids are the rendered text\'s');
  const bare = new HfTokenizer(json('tokenizer.json'), { eos_token: '<|im_end|>' });
  t.throws(() => bare.applyChatTemplate(messages), /no chat_template/, 'a tokenizer without a template says so');
  t.equal(ids[0], 3, '<|im_start|> is one special token');
  t.same(tok.stopIds, [2], 'eos_token <|im_end|> stops generation');

  // Greedy reference: argmax of the scoring graph's last position, token by token.
  const s = await ModelSession.create(m.model, { graphs: ['sample'] });
  const seq = [...ids];
  const maxTokens = m.model.contextLength - ids.length - 1;
  for (let n = 0; n < maxTokens; n++) {
    const T = seq.length;
    const bias = new Float32Array(T * T).map((_, i) => (i % T <= Math.floor(i / T) ? 0 : -1e9));
    const r = await s.step({ tokens: BigInt64Array.from(seq.map(BigInt)), positions: BigInt64Array.from(seq.map((_, i) => BigInt(i))), bias, batch: 1, steps: T, past: s.emptyCache(1) }, m.params);
    let best = 0;
    for (let v = 1; v < m.model.vocab; v++) if (r.logpLast[v]! > r.logpLast[best]!) best = v;
    seq.push(best);
    if (tok.stopIds.includes(best)) break;
  }
  await s.release();
  const continuation = seq.slice(ids.length).filter((id) => !tok.stopIds.includes(id));
  const cli = await spadeCli(['model', 'generate', dir, '--prompt', 'the sea', '--chat', '--temperature', '0', '--max-tokens', String(maxTokens)]);
  t.equal(cli.code, 0, cli.stderr);
  const [text, summary] = cli.stdout.split('\n');
  t.equal(text, tok.decode(continuation), 'the CLI\'s greedy text is the argmax walk\'s');
  t.match(summary!, new RegExp(`prompt ${ids.length} tokens through the chat template`));

  const plain = await caughtAsync(() => modelCommand(['generate', fixtureDir('llama-f32-untied'), '--prompt', 'x']));
  t.ok(isUsageError(plain) && /has no tokenizer/.test((plain as Error).message), `a model without tokenizer.json cannot take --prompt: ${String(plain)}`);
});
