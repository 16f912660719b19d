// Reading a prompt back into its messages: the inverse of a chat template (or of the plain "role: text" format) for
// the conversations the prompts build, a system message first, then user and assistant messages, ending at the
// generation prompt. The wrappers are learned once per format by rendering a probe conversation with marker contents
// and decoding it as the prompt itself is decoded, so what is read back is what the model was shown.
import type { ChatMessage } from './hf-tokenizer.js';

/** Where a rendered conversation puts its messages. */
export interface ChatLayout {
  /** Text before the system message's content (a BOS, the system header). */
  head: string;
  /** Text that ends every message and begins the next (ChatML: `<|im_end|>\n<|im_start|>`). */
  closer: string;
  /** Openers that follow the closer and say whose message comes (`user\n`, `assistant\n`). */
  user: string;
  assistant: string;
  /** What follows the last message: its closer and the generation prompt. */
  tail: string;
}

/** A message read back; `role` null for a first message cut at the front (a prompt cut to its last ids). */
export interface ReadMessage {
  role: ChatMessage['role'] | null;
  content: string;
}

// Lower-case letters only: they survive any tokenizer's encode and decode (even one without punctuation or digits).
const PROBE: readonly ChatMessage[] = [
  { role: 'system', content: 'qzxsystemxzq' },
  { role: 'user', content: 'qzxuserxzq' },
  { role: 'assistant', content: 'qzxassistantxzq' },
  { role: 'user', content: 'qzxagainxzq' },
];

/**
 * The layout of `render` (messages, to the prompt text as decoded from its ids), or null when the format does not
 * have this shape (a template that folds the system message into the first user turn, say).
 */
export function chatLayout(render: (messages: readonly ChatMessage[]) => string): ChatLayout | null {
  let text: string;
  try {
    text = render(PROBE);
  } catch {
    return null;
  }
  const at = PROBE.map((m) => text.indexOf(m.content));
  if (at.some((i, k) => i < 0 || (k > 0 && i <= at[k - 1]!))) return null;
  const end = (k: number): number => at[k]! + PROBE[k]!.content.length;
  const toUser = text.slice(end(0), at[1]), toAssistant = text.slice(end(1), at[2]), toUserAgain = text.slice(end(2), at[3]);
  if (toUser !== toUserAgain) return null;
  let n = 0;
  while (n < toUser.length && n < toAssistant.length && toUser[n] === toAssistant[n]) n++;
  const layout = { head: text.slice(0, at[0]), closer: toUser.slice(0, n), user: toUser.slice(n), assistant: toAssistant.slice(n), tail: text.slice(end(3)) };
  // Openers must tell the roles apart, and a closer must exist to split at.
  if (layout.closer === '' || layout.user.startsWith(layout.assistant) || layout.assistant.startsWith(layout.user)) return null;
  return layout;
}

/** The messages of a prompt's decoded text, in order (its generation prompt left off). */
export function readChat(l: ChatLayout, text: string): ReadMessage[] {
  const whole = text.startsWith(l.head);
  let body = whole ? text.slice(l.head.length) : text;
  if (body.endsWith(l.tail)) body = body.slice(0, body.length - l.tail.length);
  const [first, ...rest] = body.split(l.closer);
  const out: ReadMessage[] = [{ role: whole ? 'system' : null, content: first! }];
  for (const part of rest) {
    if (part.startsWith(l.user)) out.push({ role: 'user', content: part.slice(l.user.length) });
    else if (part.startsWith(l.assistant)) out.push({ role: 'assistant', content: part.slice(l.assistant.length) });
    else out[out.length - 1]!.content += l.closer + part; // the closer's text inside a message belongs to it
  }
  return out;
}
