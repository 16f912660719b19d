// Reads back what a policy was shown: a prompt's token ids split into its turns (system, doc, hint, env, agent) by
// the run's own prompt format (the project's role tokens, or a Hugging Face model's chat template), so the dashboard
// shows an agent's observation and hint, and the document and parent module a designer was given, as the model saw
// them (cut to the prompt budget).
import { MEMORY_LINE_START, PARENT_INTRO, unpackInts } from '../actors/loop/index.js';
import type { PromptFormat, PromptTurn } from '../model/index.js';

export type { PromptTurn };

/** The turns of a prompt, in order (the speaker's own opening left off). */
export function promptTurns(format: PromptFormat, packed: Uint8Array): PromptTurn[] {
  return format.read(unpackInts(packed));
}

/** The observation an agent turn answered (its prompt's last `env` turn) and the hint, when its prompt held one. */
export function agentView(format: PromptFormat, packed: Uint8Array): { observation: string; hint: string | null } {
  const turns = promptTurns(format, packed);
  const env = turns.filter((t) => t.role === 'env');
  return { observation: env.at(-1)?.text ?? '', hint: turns.find((t) => t.role === 'hint')?.text ?? null };
}

/** The grounding document and the parent module a designer prompt showed (null where it had none). */
export function designerView(format: PromptFormat, packed: Uint8Array): { document: string | null; parentCode: string | null } {
  const turns = promptTurns(format, packed);
  let document = turns.find((t) => t.role === 'doc')?.text ?? null;
  const parent = turns.find((t) => t.role === 'system' && t.text.startsWith(PARENT_INTRO));
  let parentCode = parent ? parent.text.slice(PARENT_INTRO.length).replace(/^\n/, '') : null;
  if (document !== null && parent === undefined) {
    // In a chat the memory lines and the parent share the document's user message (chatMessages merges a turn into
    // the message before it): the parent follows its intro, the document ends where the first memory line begins.
    const intro = document.indexOf(`\n\n${PARENT_INTRO}\n`);
    if (intro >= 0) (parentCode = document.slice(intro + PARENT_INTRO.length + 3), document = document.slice(0, intro));
    const memory = document.split('\n\n').findIndex((p, i) => i > 0 && MEMORY_LINE_START.test(p));
    if (memory > 0) document = document.split('\n\n').slice(0, memory).join('\n\n');
  }
  return { document, parentCode };
}
