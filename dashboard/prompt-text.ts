// Reads back what a policy was shown: a prompt's token ids split at the special tokens into its turns (system, doc,
// hint, env, agent, designer), so the dashboard shows an agent's observation and hint, and the document and parent
// module a designer was given, exactly as the model saw them (cut to the prompt budget).
import { PARENT_INTRO, unpackInts } from '../actors/loop/index.js';
import type { Tokenizer } from '../model/index.js';

export interface PromptTurn {
  role: string;
  text: string;
}

/** The turns of a prompt: each special token opens one (`<|env|>` → role `env`), `<|end_turn|>` closes it. */
export function promptTurns(tok: Tokenizer, packed: Uint8Array): PromptTurn[] {
  const ids = unpackInts(packed);
  const turns: PromptTurn[] = [];
  let role: string | null = null;
  let run: number[] = [];
  const close = () => {
    if (role !== null) turns.push({ role, text: tok.decode(run) });
    role = null;
    run = [];
  };
  for (const id of ids) {
    if (!tok.isSpecial(id)) {
      run.push(id);
      continue;
    }
    const marker = new TextDecoder().decode(tok.tokenBytes(id));
    const name = /^<\|([a-z_0-9]+)\|>$/.exec(marker)?.[1] ?? marker;
    if (name === 'end_turn' || name === 'bos' || name === 'eos' || name === 'pad') close();
    else {
      close();
      role = name;
    }
  }
  close();
  return turns.filter((t) => t.text.length > 0 || t.role !== 'agent');
}

/** The observation an agent turn answered (its prompt's last `env` turn) and the hint, when its prompt held one. */
export function agentView(tok: Tokenizer, packed: Uint8Array): { observation: string; hint: string | null } {
  const turns = promptTurns(tok, packed);
  const env = turns.filter((t) => t.role === 'env');
  return { observation: env.at(-1)?.text ?? '', hint: turns.find((t) => t.role === 'hint')?.text ?? null };
}

/** The grounding document and the parent module a designer prompt showed (null where it had none). */
export function designerView(tok: Tokenizer, packed: Uint8Array): { document: string | null; parentCode: string | null } {
  const turns = promptTurns(tok, packed);
  const parent = turns.find((t) => t.role === 'system' && t.text.startsWith(PARENT_INTRO));
  return { document: turns.find((t) => t.role === 'doc')?.text ?? null, parentCode: parent ? parent.text.slice(PARENT_INTRO.length).replace(/^\n/, '') : null };
}
