// How a prompt of turns becomes token ids, for whichever tokenizer the policy has: the project's own format (role
// tokens, <|end_turn|>), a Hugging Face model's chat template (system / user / assistant messages, the end-of-turn
// token as the stop), or, for a Hugging Face model without a template, plain "role: text" lines ending at its EOS.
// The designer, the agent and the warm start build prompts only through this, so the sampled span is always the
// speaker's turn and its stop ids are the ones the sampler stops on.
import { TokenizerError } from './errors.js';
import { chatLayout, readChat, type ChatLayout, type ReadMessage } from './chat-reading.js';
import type { ChatMessage, HfTokenizer } from './hf-tokenizer.js';
import { Tokenizer, type TurnRole } from './tokenizer.js';

/** A turn of the project's format; `doc` and `hint` are labelled text in a chat. */
export interface PromptTurn {
  role: Exclude<TurnRole, 'designer'>;
  text: string;
}

export type Speaker = 'designer' | 'agent';

export interface PromptFormat {
  readonly kind: 'spade' | 'chat' | 'plain';
  readonly vocabSize: number;
  /** Ids that end a sampled turn: the sampler's stop tokens. */
  readonly stopIds: readonly number[];
  /** The id that closes a completion in a training row (the first stop id). */
  readonly endOfTurn: number;
  encode(text: string): number[];
  decode(ids: ArrayLike<number>): string;
  /** The prompt ids of `turns`, ending where `speaker`'s turn begins (what is sampled next is that turn). */
  prompt(turns: readonly PromptTurn[], speaker: Speaker): number[];
  /** A prompt cut to its last `n` ids, keeping what must lead it (the project's <|bos|>). */
  keepLast(ids: readonly number[], n: number): number[];
  /**
   * The turns of a prompt read back from its ids, as `prompt` laid them out (the speaker's opening left off): what
   * the dashboard shows of what the model was given. In a chat, turns that share a message come back as one.
   */
  read(ids: ArrayLike<number>): PromptTurn[];
}

/** Anything prompts are built from: a format, the project's tokenizer (its own format) or a Hugging Face one. */
export type PromptSource = PromptFormat | Tokenizer | HfTokenizer;

const spadeFormats = new WeakMap<Tokenizer, PromptFormat>();

/** The project's own format, exactly as the shipped checkpoint was trained on it. */
export function spadePromptFormat(tok: Tokenizer): PromptFormat {
  let f = spadeFormats.get(tok);
  if (f !== undefined) return f;
  const bos = tok.specialId('<|bos|>');
  const endTurn = tok.specialId('<|end_turn|>');
  f = {
    kind: 'spade', vocabSize: tok.vocabSize, stopIds: [endTurn, tok.specialId('<|eos|>')], endOfTurn: endTurn,
    encode: (text) => tok.encode(text),
    decode: (ids) => tok.decode(ids),
    prompt: (turns, speaker) => [bos, ...turns.flatMap((t) => tok.encodeTurn(t.role, t.text)), tok.specialId(`<|${speaker}|>`)],
    keepLast: (ids, n) => [bos, ...ids.slice(ids.length - n + 1)],
    read: (ids) => spadeTurns(tok, ids),
  };
  spadeFormats.set(tok, f);
  return f;
}

const TURN_ROLES: ReadonlySet<string> = new Set<PromptTurn['role']>(['system', 'doc', 'hint', 'env', 'agent']);

/** The project's format read back: each role token opens a turn, <|end_turn|> (or <|bos|>, <|eos|>) closes it. */
function spadeTurns(tok: Tokenizer, ids: ArrayLike<number>): PromptTurn[] {
  const turns: PromptTurn[] = [];
  let role: string | null = null;
  let run: number[] = [];
  const close = (): void => {
    if (role !== null && TURN_ROLES.has(role) && (run.length > 0 || role !== 'agent')) turns.push({ role: role as PromptTurn['role'], text: tok.decode(run) });
    role = null;
    run = [];
  };
  for (const id of Array.from(ids)) {
    if (!tok.isSpecial(id)) {
      run.push(id);
      continue;
    }
    const marker = new TextDecoder().decode(tok.tokenBytes(id));
    const name = /^<\|([a-z_0-9]+)\|>$/.exec(marker)?.[1] ?? marker;
    close();
    if (name !== 'end_turn' && name !== 'bos' && name !== 'eos' && name !== 'pad') role = name;
  }
  close();
  return turns;
}

/** Labels that say in words what the project's role tokens say. */
const LABEL: Partial<Record<PromptTurn['role'], string>> = { doc: 'Document:\n', hint: 'Hint: ' };

/**
 * The turns as chat messages: system (and hint) turns before anything else form the system message; document and
 * environment turns, and system turns after them, are the user's; agent turns are the assistant's. Neighbouring
 * turns of one role merge (templates expect roles to alternate, and one system message first).
 */
export function chatMessages(turns: readonly PromptTurn[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const t of turns) {
    const role: ChatMessage['role'] = t.role === 'agent' ? 'assistant' : (t.role === 'system' || t.role === 'hint') && out.every((m) => m.role === 'system') ? 'system' : 'user';
    const content = (LABEL[t.role] ?? '') + t.text;
    const last = out[out.length - 1];
    if (last?.role === role) last.content += `\n\n${content}`;
    else out.push({ role, content });
  }
  return out;
}

/** A Hugging Face tokenizer's format: its chat template when it has one, else plain lines. */
export function hfPromptFormat(tok: HfTokenizer): PromptFormat {
  if (tok.stopIds.length === 0) {
    throw new TokenizerError('the Hugging Face tokenizer names no end-of-turn token (eos_token in tokenizer_config.json, eos_token_id in generation_config.json)', { code: 'TOKENIZER_HF' });
  }
  const chat = tok.chatTemplate !== undefined;
  const plain = (messages: readonly ChatMessage[]): string => messages.map((m) => `${m.role}: ${m.content}\n\n`).join('') + 'assistant:';
  let layout: ChatLayout | null | undefined;
  return {
    kind: chat ? 'chat' : 'plain', vocabSize: tok.vocabSize, stopIds: tok.stopIds, endOfTurn: tok.stopIds[0]!,
    encode: (text) => tok.encode(text),
    decode: (ids) => tok.decode(ids),
    prompt: (turns) => (chat ? tok.encodeChat(chatMessages(turns)) : tok.encode(plain(chatMessages(turns)))),
    keepLast: (ids, n) => ids.slice(ids.length - n),
    read: (ids) => {
      layout ??= chatLayout((m) => tok.decode(chat ? tok.encodeChat(m) : tok.encode(plain(m))));
      return layout === null ? [{ role: 'system', text: tok.decode(ids) }] : chatTurns(readChat(layout, tok.decode(ids)));
    },
  };
}

/**
 * chatMessages read backwards: the system message gives the system turn and the hint, a user message the document
 * (with what shares its message: a designer's memory lines and parent) or an observation, an assistant message an
 * action. A first message cut off at the front is left out.
 */
export function chatTurns(messages: readonly ReadMessage[]): PromptTurn[] {
  const hint = `\n\n${LABEL.hint}`;
  return messages.flatMap((m): PromptTurn[] => {
    if (m.role === 'assistant') return [{ role: 'agent', text: m.content }];
    if (m.role === 'user') return m.content.startsWith(LABEL.doc!) ? [{ role: 'doc', text: m.content.slice(LABEL.doc!.length) }] : [{ role: 'env', text: m.content }];
    if (m.role === null) return [];
    const at = m.content.indexOf(hint);
    return at < 0 ? [{ role: 'system', text: m.content }] : [{ role: 'system', text: m.content.slice(0, at) }, { role: 'hint', text: m.content.slice(at + hint.length) }];
  });
}

export function promptFormat(source: PromptSource): PromptFormat {
  if (source instanceof Tokenizer) return spadePromptFormat(source);
  if ('prompt' in source) return source;
  return hfPromptFormat(source);
}
