// Fits the designer prompt into the model's context: memory lines are dropped from the end, then the document is
// cut, then the parent dropped, until the prompt leaves room for the module (maxTokens, or half the context when that
// is smaller).
import { designerPrompt, type MemoryLine } from '../loop/prompts.js';
import type { PromptSource } from '../../model/index.js';
import type { MemoryEntry } from '../loop/memory/memory-entry.js';
import { PromptTooLongError } from '../loop/errors.js';

export interface DesignerPromptRequest {
  doc: string;
  memory: MemoryEntry[];
  docChars: number;
  maxTokens: number;
  /** The parent module's code the designer edits. */
  parent?: string;
  /** Or the parent's knob sheet, when designs are knob edits (it is never dropped: without it there is nothing to edit). */
  parentKnobs?: string;
}

export interface FittedPrompt {
  tokens: number[];
  /** The entries that made it into the prompt (shown beside the parent). */
  memory: MemoryEntry[];
  docChars: number;
  /** False when the parent did not fit (or there was none); a knob sheet always stays. */
  parent: boolean;
}

export function memoryLine(e: MemoryEntry): MemoryLine {
  return {
    name: e.name, family: e.family, description: e.description, regret: e.regret, returnHint: e.returnHint, returnNoHint: e.returnNoHint,
    evaluated: e.evaluated,
  };
}

export function buildDesignerPrompt(policy: { format: PromptSource; contextLength: number }, r: DesignerPromptRequest): FittedPrompt {
  const limit = policy.contextLength - Math.min(r.maxTokens, Math.floor(policy.contextLength / 2));
  let memory = r.memory;
  let docChars = Math.min(r.docChars, r.doc.length);
  let parent = r.parent;
  for (;;) {
    const tokens = designerPrompt(policy.format, {
      doc: r.doc, memory: memory.map(memoryLine), docChars, ...(parent !== undefined ? { parent } : {}), ...(r.parentKnobs !== undefined ? { parentKnobs: r.parentKnobs } : {}),
    });
    if (tokens.length <= limit) return { tokens, memory, docChars, parent: parent !== undefined || r.parentKnobs !== undefined };
    if (memory.length > 0) memory = memory.slice(0, -1);
    else if (docChars > 0) docChars = Math.floor(docChars / 2);
    else if (parent !== undefined) parent = undefined;
    else throw new PromptTooLongError('designer', tokens.length, limit);
  }
}
