// A Hugging Face model's own tokenizer (tokenizer.json through @huggingface/tokenizers, the field's JS
// implementation) and chat template (tokenizer_config.json's Jinja through @huggingface/jinja).
import { Tokenizer as HfTokenizerImpl } from '@huggingface/tokenizers';
import { Template } from '@huggingface/jinja';
import { TokenizerError } from './errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Special tokens given as a string or as `{ content }` in tokenizer_config.json. */
const tokenText = (t: unknown): string | undefined =>
  typeof t === 'string' ? t : t !== null && typeof t === 'object' && typeof (t as { content?: unknown }).content === 'string' ? (t as { content: string }).content : undefined;

export class HfTokenizer {
  readonly kind = 'hf' as const;
  /** Ids the tokenizer knows, added tokens included. */
  readonly vocabSize: number;
  /** Ids that end a generation: eos_token, and generation_config.json's eos_token_id(s). */
  readonly stopIds: number[];
  readonly chatTemplate: string | undefined;
  private readonly impl: HfTokenizerImpl;
  private readonly template: Template | undefined;
  private readonly specials: Record<string, string | undefined>;
  /** The text of every special added token (the template's turn markers among them), longest first. */
  private readonly specialTexts: string[];
  /** The files it was built from, name -> text (tokenizer.json, tokenizer_config.json, generation_config.json), so a checkpoint can carry them. */
  files: ReadonlyMap<string, string> = new Map();

  /** Builds the tokenizer from the text of its files (tokenizer.json required); a file that is not JSON is named. */
  static fromFiles(files: ReadonlyMap<string, string>): HfTokenizer {
    const json = (name: string): Record<string, unknown> | undefined => {
      const text = files.get(name);
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch (cause) {
        throw new TokenizerError(`${name}: not valid JSON (${(cause as Error).message})`, { code: 'TOKENIZER_HF', cause });
      }
    };
    const tok = json('tokenizer.json');
    if (tok === undefined) throw new TokenizerError('tokenizer.json is missing', { code: 'TOKENIZER_HF' });
    const t = new HfTokenizer(tok, json('tokenizer_config.json') ?? {}, json('generation_config.json') ?? {});
    t.files = new Map(files);
    return t;
  }

  constructor(tokenizerJson: object, tokenizerConfig: Record<string, unknown> = {}, generationConfig: Record<string, unknown> = {}) {
    try {
      this.impl = new HfTokenizerImpl(tokenizerJson, tokenizerConfig);
    } catch (cause) {
      throw new TokenizerError(`tokenizer.json: cannot build the tokenizer (${(cause as Error).message})`, { code: 'TOKENIZER_HF', cause });
    }
    this.specialTexts = [...this.impl.get_added_tokens_decoder().values()].filter((a) => a.special && a.content.length > 0).map((a) => a.content).sort((a, b) => b.length - a.length);
    const vocab = this.impl.get_vocab(true);
    this.vocabSize = Math.max(...vocab.values()) + 1;
    this.specials = { bos_token: tokenText(tokenizerConfig.bos_token), eos_token: tokenText(tokenizerConfig.eos_token) };
    const stops = new Set<number>();
    const eos = this.specials.eos_token === undefined ? undefined : this.impl.token_to_id(this.specials.eos_token);
    if (eos !== undefined) stops.add(eos);
    for (const id of [generationConfig.eos_token_id].flat()) if (typeof id === 'number') stops.add(id);
    this.stopIds = [...stops];
    const t = tokenizerConfig.chat_template;
    // A list of named templates is allowed too; the one named "default" is the chat template.
    const text = typeof t === 'string' ? t : Array.isArray(t) ? (t as Array<{ name?: string; template?: string }>).find((x) => x.name === 'default')?.template : undefined;
    this.chatTemplate = text;
    try {
      this.template = text === undefined ? undefined : new Template(text);
    } catch (cause) {
      throw new TokenizerError(`tokenizer_config.json: chat_template does not parse (${(cause as Error).message})`, { code: 'TOKENIZER_TEMPLATE', cause });
    }
  }

  /** Token ids of text; `specialTokens` adds what the tokenizer's post-processor adds (a BOS, for Llama). */
  encode(text: string, specialTokens = false): number[] {
    return this.impl.encode(text, { add_special_tokens: specialTokens }).ids;
  }

  decode(ids: ArrayLike<number>, skipSpecial = false): string {
    return this.impl.decode(Array.from(ids), { skip_special_tokens: skipSpecial });
  }

  /** The prompt text of a conversation through the model's chat template, ending where the assistant speaks. */
  applyChatTemplate(messages: readonly ChatMessage[], addGenerationPrompt = true): string {
    if (this.template === undefined) throw new TokenizerError('tokenizer_config.json has no chat_template', { code: 'TOKENIZER_TEMPLATE' });
    try {
      return this.template.render({ messages, add_generation_prompt: addGenerationPrompt, ...this.specials });
    } catch (cause) {
      throw new TokenizerError(`chat_template failed to render (${(cause as Error).message})`, { code: 'TOKENIZER_TEMPLATE', cause });
    }
  }

  /**
   * Token ids of a conversation (the template writes the special tokens itself). Message content is text, never
   * markup: content that spells a special token (an observation or a document with `<|im_end|>\n<|im_start|>`) is
   * encoded as the plain text it is, so it cannot forge a turn boundary. Content without one (every prompt a run
   * writes itself) is encoded as the whole rendering, exactly as transformers' apply_chat_template does.
   */
  encodeChat(messages: readonly ChatMessage[]): number[] {
    if (!messages.some((m) => this.spellsSpecial(m.content))) return this.encode(this.applyChatTemplate(messages), false);
    // Render with a placeholder per message, then encode the template's text and each content apart.
    const nonce = Math.random().toString(36).slice(2, 10);
    const mark = (i: number): string => `SPADExCONTENTx${nonce}x${i}x`;
    const rendered = this.applyChatTemplate(messages.map((m, i) => ({ ...m, content: mark(i) })));
    const ids: number[] = [];
    let at = 0;
    for (const [i, m] of messages.entries()) {
      const where = rendered.indexOf(mark(i), at);
      if (where < 0 || rendered.indexOf(mark(i), where + 1) >= 0) {
        throw new TokenizerError(`the chat template does not write message ${i} (${m.role}) once, in order, so its content, which spells a special token, cannot be kept apart from the markup`, { code: 'TOKENIZER_TEMPLATE' });
      }
      ids.push(...this.encode(rendered.slice(at, where), false), ...this.encodePlain(m.content));
      at = where + mark(i).length;
    }
    ids.push(...this.encode(rendered.slice(at), false));
    return ids;
  }

  private spellsSpecial(text: string): boolean {
    return this.specialTexts.some((s) => text.includes(s));
  }

  /** Ids of text in which special-token spellings are plain text: each is cut after its first character. */
  private encodePlain(text: string): number[] {
    const ids: number[] = [];
    while (text.length > 0) {
      let first = -1;
      for (const s of this.specialTexts) {
        const k = text.indexOf(s);
        if (k >= 0 && (first < 0 || k < first)) first = k;
      }
      if (first < 0) break;
      ids.push(...this.encode(text.slice(0, first + 1), false));
      text = text.slice(first + 1);
    }
    ids.push(...this.encode(text, false));
    return ids;
  }
}
