// The two prompts of the one shared policy, as turns; model/prompt-format.ts makes them ids in the policy's format
// (the project's own, below, or a Hugging Face chat template). The warm-start script, the designer and the agent
// all build prompts here, so what the model was trained on is exactly what it is asked. The project's own format:
//   designer: <|bos|> <|system|>contract<|end_turn|> <|doc|>document<|end_turn|> (<|system|>memory line<|end_turn|>)*
//             (<|system|>PARENT_INTRO\nparent code<|end_turn|>)? <|designer|>  → module code <|end_turn|>
//             or, with designer.output 'knobs': (<|system|>KNOBS_INTRO\nknob sheet<|end_turn|>) <|designer|>  → changed knob lines <|end_turn|>
//   agent:    <|bos|> <|system|>task<|end_turn|> (<|hint|>hint<|end_turn|>)? (<|env|>obs<|end_turn|> <|agent|>action<|end_turn|>)* <|env|>obs<|end_turn|> <|agent|>  → action <|end_turn|>
import { promptFormat, type PromptSource, type PromptTurn } from '../../model/index.js';

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
  /** Instead of `parent`: the parent's knob sheet (actors/designer/knob-edit.ts); the designer writes the lines it changes. */
  parentKnobs?: string;
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

/** Introduces the parent's knob sheet when designs are knob edits (loop.designer.output 'knobs'). */
export const KNOBS_INTRO = 'Change the knobs of this environment into a new one for the document. Write only the lines you change. Parent:';

/** The start of a memoryText line (name, family, stats), for reading a prompt back where the lines share a message. */
export const MEMORY_LINE_START = /^[a-z0-9~-]+ \([^()\n]*\) (?:unevaluated|regret -?\d+\.\d\d hint -?\d+\.\d\d nohint -?\d+\.\d\d): /;

export function memoryText(m: MemoryLine): string {
  const d = m.description.length > 120 ? `${m.description.slice(0, 117)}...` : m.description;
  // Zeros would read as measured: an entry not yet evaluated says so.
  const stats = m.evaluated === false ? 'unevaluated' : `regret ${m.regret.toFixed(2)} hint ${m.returnHint.toFixed(2)} nohint ${m.returnNoHint.toFixed(2)}`;
  return `${m.name} (${m.family}) ${stats}: ${d}`;
}

export function designerPrompt(source: PromptSource, input: DesignerPromptInput): number[] {
  const doc = input.doc.slice(0, input.docChars ?? DEFAULT_DOC_CHARS);
  const turns: PromptTurn[] = [{ role: 'system', text: CONTRACT_BRIEF }, { role: 'doc', text: doc }];
  for (const m of input.memory) turns.push({ role: 'system', text: memoryText(m) });
  if (input.parent !== undefined) turns.push({ role: 'system', text: `${PARENT_INTRO}\n${input.parent}` });
  else if (input.parentKnobs !== undefined) turns.push({ role: 'system', text: `${KNOBS_INTRO}\n${input.parentKnobs}` });
  return promptFormat(source).prompt(turns, 'designer');
}

export function agentPrompt(source: PromptSource, input: AgentPromptInput): number[] {
  const f = promptFormat(source);
  const head: PromptTurn[] = [{ role: 'system', text: input.description }];
  if (input.hint !== undefined) head.push({ role: 'hint', text: input.hint });
  const history = input.history.map((h): PromptTurn[] => [{ role: 'env', text: h.observation }, { role: 'agent', text: h.action }]);
  const build = (first: number): number[] => f.prompt([...head, ...history.slice(first).flat(), { role: 'env', text: input.observation }], 'agent');
  // The oldest turns are dropped until the prompt fits (task, hint and the current observation stay): the fewest
  // dropped, found by bisection (fewer kept turns, fewer ids), so a long episode costs a few encodings, not one per turn.
  let ids = build(0);
  if (ids.length > input.maxPromptTokens) {
    let lo = 1, hi = history.length; // the answer lies in [lo, hi]; hi keeps no earlier turn
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (build(mid).length <= input.maxPromptTokens) hi = mid;
      else lo = mid + 1;
    }
    if (hi > 0) ids = build(hi);
  }
  // A task text longer than the budget is cut from the front; never exceed the budget.
  return ids.length > input.maxPromptTokens ? f.keepLast(ids, input.maxPromptTokens) : ids;
}

/** The token that ends a designer's module or an agent's action in a training row. */
export function endOfTurn(source: PromptSource): number {
  return promptFormat(source).endOfTurn;
}

/** The ids a sampled turn stops on. */
export function stopIds(source: PromptSource): number[] {
  return [...promptFormat(source).stopIds];
}
