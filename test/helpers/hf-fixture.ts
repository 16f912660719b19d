// Test helpers for Hugging Face model directories: a copy of a committed fixture in a temp directory, with a longer
// context (the fixtures keep 32 positions for the parity tests; the weights do not depend on it), another chat template
// or the shared tokenizer copied in, so tests never change the committed files the parity tests read; and a weightless
// directory with a lossless byte-level tokenizer.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoPath } from '../../runtime/paths.js';
import { tempDir, type Teardown } from './nats.js';

export const hfFixture = (name: string): string => repoPath('test', 'fixtures', 'hf-models', name);

export interface HfCopyOptions {
  contextLength?: number;
  /** tokenizer_config.json's chat_template; null removes it. */
  chatTemplate?: string | null;
  /** Copies this fixture's tokenizer files in (the fixtures share one 48-id vocab; only qwen2-f32-tied has them). */
  tokenizerFrom?: string;
}

export async function hfFixtureCopy(t: Teardown, name: string, o: HfCopyOptions = {}): Promise<string> {
  const dir = join(tempDir(t, 'hf-model-'), name);
  await cp(hfFixture(name), dir, { recursive: true });
  const edit = async (file: string, f: (json: Record<string, unknown>) => void): Promise<void> => {
    const json = JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;
    f(json);
    await writeFile(join(dir, file), JSON.stringify(json, null, 1));
  };
  if (o.tokenizerFrom !== undefined) {
    for (const f of ['tokenizer.json', 'tokenizer_config.json']) await cp(join(hfFixture(o.tokenizerFrom), f), join(dir, f));
  }
  if (o.contextLength !== undefined) await edit('config.json', (c) => void (c.max_position_embeddings = o.contextLength));
  if (o.chatTemplate !== undefined) await edit('tokenizer_config.json', (c) => void (o.chatTemplate === null ? delete c.chat_template : (c.chat_template = o.chatTemplate)));
  return dir;
}

/** GPT-2's byte-to-character table: every byte value as one printable character (byte-level BPE's alphabet). */
function byteChars(): string[] {
  const keep = [...Array(256).keys()].filter((b) => (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255));
  const out: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) out[b] = String.fromCodePoint(keep.includes(b) ? b : 256 + extra++);
  return out;
}

export const CHATML_TEMPLATE = "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/**
 * A Hugging Face directory with a lossless byte-level tokenizer (256 byte ids, then <|im_start|> 256, <|im_end|> 257,
 * <|endoftext|> 258; no merges) and a ChatML template (null: none), and a tiny qwen2 config.json of that vocab. It has no
 * weights: for what reads only a model's tokenizer (the dashboard), where every text must decode back exactly.
 */
export async function byteLevelHfDir(t: Teardown, chatTemplate: string | null = CHATML_TEMPLATE): Promise<string> {
  const dir = join(tempDir(t, 'hf-bytes-'), 'model');
  await mkdir(dir);
  const specials = ['<|im_start|>', '<|im_end|>', '<|endoftext|>'];
  const vocab: Record<string, number> = Object.fromEntries(byteChars().map((c, i) => [c, i]));
  specials.forEach((s, i) => (vocab[s] = 256 + i));
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  const tokenizer = {
    version: '1.0', truncation: null, padding: null,
    added_tokens: specials.map((content, i) => ({ id: 256 + i, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: null, pre_tokenizer: byteLevel, post_processor: null, decoder: byteLevel,
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges: [] },
  };
  const config = {
    model_type: 'qwen2', architectures: ['Qwen2ForCausalLM'], hidden_size: 16, intermediate_size: 24, num_hidden_layers: 1, num_attention_heads: 2, num_key_value_heads: 1,
    vocab_size: 259, max_position_embeddings: 4096, rms_norm_eps: 1e-6, rope_theta: 10000, hidden_act: 'silu', tie_word_embeddings: true, eos_token_id: 257, torch_dtype: 'float32',
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(config, null, 1));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ eos_token: '<|im_end|>', pad_token: '<|endoftext|>', ...(chatTemplate === null ? {} : { chat_template: chatTemplate }) }, null, 1));
  return dir;
}
