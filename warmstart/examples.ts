// Supervised examples in exactly the prompt formats of actors/loop/prompts.ts: the designer edits a parent module into
// a child grounded on a document (with 0..K memory lines naming library envs), the agent imitates an oracle episode
// with or without the hint. Each example is one token row with a loss mask over the completion tokens only.
import type { PromptSource } from '../model/index.js';
import { agentPrompt, designerPrompt, endOfTurn, type AgentTurn, type MemoryLine } from '../actors/loop/index.js';
import { knobEditText, knobSheet } from '../actors/designer/index.js';
import { WarmStartDataError } from './errors.js';
import type { LibraryEnv } from './library.js';
import type { OracleEpisode } from './oracle-episodes.js';
import type { DesignerEdit } from './edits.js';

export type Role = 'designer' | 'agent';

export interface Example {
  role: Role;
  tokens: number[];
  /** Per predicted token (tokens.length - 1): 1 on completion tokens (module or action, and their end of turn). */
  mask: number[];
  /** Library env the example came from. */
  env: string;
}

/** A memory line for a library env with plausible stats (the real ones come from the evaluator). */
export function libraryMemoryLine(e: LibraryEnv, random: () => number): MemoryLine {
  const returnHint = 0.5 + 0.5 * random();
  const returnNoHint = returnHint * random();
  return { name: e.spec.name, family: e.family, description: e.spec.description, regret: returnHint - returnNoHint, returnHint, returnNoHint };
}

/** 0..maxMemory lines for other library envs than `target` (the designer should add something new to the memory). */
export function sampleMemory(library: readonly LibraryEnv[], target: string | null, maxMemory: number, random: () => number): MemoryLine[] {
  const others = library.filter((e) => e.name !== target);
  const k = Math.min(others.length, Math.floor(random() * (maxMemory + 1)));
  const picked: LibraryEnv[] = [];
  while (picked.length < k) {
    const e = others[Math.floor(random() * others.length)]!;
    if (!picked.includes(e)) picked.push(e);
  }
  return picked.map((e) => libraryMemoryLine(e, random));
}

function completionRow(role: Role, env: string, prompt: number[], completion: number[]): Example {
  const tokens = [...prompt, ...completion];
  const mask = tokens.slice(1).map((_, i) => (i + 1 >= prompt.length ? 1 : 0));
  return { role, env, tokens, mask };
}

/**
 * The designer edits `edit.parent` into `edit.child` for `edit.doc`, in the loop's prompt with a parent: as a whole
 * module (`module`), or as the lines of the parent's knob sheet it changes (`knobs`, loop.designer.output 'knobs').
 */
export function designerEditExample(tok: PromptSource, edit: DesignerEdit, memory: MemoryLine[], output: 'module' | 'knobs' = 'module'): Example {
  if (output === 'module') {
    const prompt = designerPrompt(tok, { doc: edit.doc, memory, parent: edit.parent });
    return completionRow('designer', edit.root, prompt, [...tok.encode(edit.child), endOfTurn(tok)]);
  }
  const sheet = knobSheet(edit.parent), lines = knobEditText(edit.parent, edit.child);
  if (sheet === null || lines === '') throw new WarmStartDataError(`edit of ${edit.root} (${edit.edits.join(', ')}) is no knob edit of its parent`, edit.root);
  const prompt = designerPrompt(tok, { doc: edit.doc, memory, parentKnobs: sheet });
  return completionRow('designer', edit.root, prompt, [...tok.encode(lines), endOfTurn(tok)]);
}

/**
 * One episode as few rows as possible: while the next turn's prompt extends the previous prompt plus its action (no
 * history dropped yet), the turns share one row with every action masked in; a prompt that dropped history starts a new row.
 */
export function agentExamples(tok: PromptSource, env: LibraryEnv, ep: OracleEpisode, hinted: boolean, maxPromptTokens: number): Example[] {
  const rows: Example[] = [];
  let cur: { tokens: number[]; mask: number[] } | null = null;
  const history: AgentTurn[] = [];
  for (const turn of ep.turns) {
    // The instance's own hint (contract v2), so hinted rows show the demonstration what the hinted agent will see.
    const prompt = agentPrompt(tok, { description: env.spec.description, ...(hinted ? { hint: ep.hint ?? env.spec.hint } : {}), history, observation: turn.observation, maxPromptTokens });
    const action = [...tok.encode(turn.action), endOfTurn(tok)];
    if (cur && prompt.length >= cur.tokens.length && cur.tokens.every((t, i) => prompt[i] === t)) {
      const start = cur.tokens.length;
      cur.tokens.push(...prompt.slice(start), ...action);
      cur.mask.push(...prompt.slice(start).map(() => 0), ...action.map(() => 1));
    } else {
      if (cur) rows.push({ role: 'agent', env: env.name, ...cur });
      const r = completionRow('agent', env.name, prompt, action);
      cur = { tokens: r.tokens, mask: r.mask };
    }
    history.push(turn);
  }
  if (cur) rows.push({ role: 'agent', env: env.name, ...cur });
  return rows;
}
