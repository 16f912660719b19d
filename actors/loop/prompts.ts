// The two prompt formats of the one shared policy. The warm-start script, the designer and the agent
// all build prompts here, so what the model was trained on is exactly what it is asked.
//   designer: <|bos|> <|system|>contract<|end_turn|> <|doc|>document<|end_turn|> (<|system|>memory line<|end_turn|>)*
//             (<|system|>PARENT_INTRO\nparent code<|end_turn|>)? <|designer|>  → module code <|end_turn|>
//   agent:    <|bos|> <|system|>task<|end_turn|> (<|hint|>hint<|end_turn|>)? (<|env|>obs<|end_turn|> <|agent|>action<|end_turn|>)* <|env|>obs<|end_turn|> <|agent|>  → action <|end_turn|>
import type { Tokenizer } from '../../model/index.js';

/**
 * The environment contract, compact enough to sit in every designer prompt. It keeps the v1 wording the shipped
 * base checkpoint was warm-started on (a changed brief is a prompt the model never saw, and 20 more tokens in every
 * designer prompt); v2's per-instance hint (`reset` returning `{ observation, hint }`) reaches the designer through
 * the modules it is shown and trained on, and the full contract is docs/environments.md's prompt version.
 */
export const CONTRACT_BRIEF =
  'Write one ES module, no imports. export const spec = {name, description, hint, maxTurns}; ' +
  'export default class with reset(seed) -> {observation} and step(action) -> {observation, reward, terminated}; ' +
  'export function oracle(observation, history) -> action. Text in, text out. Rewards sum to [0,1]. Use kit and Math.random.';

export interface MemoryLine {
  name: string;
  family: string;
  description: string;
  regret: number;
  returnHint: number;
  returnNoHint: number;
  /** False: the evaluator has not scored it yet, and the line says "unevaluated" instead of stats of 0 (default true). */
  evaluated?: boolean;
}

export interface DesignerPromptInput {
  /** Grounding document text (cut to docChars). */
  doc: string;
  memory: MemoryLine[];
  docChars?: number;
  /** The parent module's code: the designer writes an edited child of it (absent: a module from scratch). */
  parent?: string;
}

export interface AgentTurn {
  observation: string;
  action: string;
}

export interface AgentPromptInput {
  description: string;
  /** Present only in hinted episodes: the instance's hint from reset (contract v2), else spec.hint. */
  hint?: string;
  history: AgentTurn[];
  observation: string;
  /** Max prompt tokens; the oldest turns are dropped to fit (task, hint and the current observation stay). */
  maxPromptTokens: number;
}

export const DEFAULT_DOC_CHARS = 600;

/** Introduces the parent module in a designer prompt: a small model edits well and recalls poorly (design.md). */
export const PARENT_INTRO = 'Edit this module into a new environment for the document. Parent:';

export function memoryText(m: MemoryLine): string {
  const d = m.description.length > 120 ? `${m.description.slice(0, 117)}...` : m.description;
  // Zeros would read as measured: an entry not yet evaluated says so.
  const stats = m.evaluated === false ? 'unevaluated' : `regret ${m.regret.toFixed(2)} hint ${m.returnHint.toFixed(2)} nohint ${m.returnNoHint.toFixed(2)}`;
  return `${m.name} (${m.family}) ${stats}: ${d}`;
}

export function designerPrompt(tok: Tokenizer, input: DesignerPromptInput): number[] {
  const doc = input.doc.slice(0, input.docChars ?? DEFAULT_DOC_CHARS);
  const ids = [tok.specialId('<|bos|>'), ...tok.encodeTurn('system', CONTRACT_BRIEF), ...tok.encodeTurn('doc', doc)];
  for (const m of input.memory) ids.push(...tok.encodeTurn('system', memoryText(m)));
  if (input.parent !== undefined) ids.push(...tok.encodeTurn('system', `${PARENT_INTRO}\n${input.parent}`));
  ids.push(tok.specialId('<|designer|>'));
  return ids;
}

export function agentPrompt(tok: Tokenizer, input: AgentPromptInput): number[] {
  const head = [tok.specialId('<|bos|>'), ...tok.encodeTurn('system', input.description)];
  if (input.hint !== undefined) head.push(...tok.encodeTurn('hint', input.hint));
  const tail = [...tok.encodeTurn('env', input.observation), tok.specialId('<|agent|>')];
  const turns = input.history.map((h) => [...tok.encodeTurn('env', h.observation), ...tok.encodeTurn('agent', h.action)]);
  let budget = input.maxPromptTokens - head.length - tail.length;
  let first = turns.length;
  while (first > 0 && turns[first - 1]!.length <= budget) budget -= turns[--first]!.length;
  const ids = [...head, ...turns.slice(first).flat(), ...tail];
  // A task text longer than the budget is cut from the front of the observation-free head; never exceed the budget.
  return ids.length > input.maxPromptTokens ? [tok.specialId('<|bos|>'), ...ids.slice(ids.length - input.maxPromptTokens + 1)] : ids;
}

/** The token that ends a designer's module or an agent's action. */
export function endOfTurn(tok: Tokenizer): number {
  return tok.specialId('<|end_turn|>');
}
