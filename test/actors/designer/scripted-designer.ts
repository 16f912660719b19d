// Shared by the designer tests: a stand-in policy that only chooses the completion text (the real sampler is
// tested in test/actors/loop/policy), an in-memory memory store, two known entries and a corpus document.
import { newMemoryEntry, withEvaluation, type MemoryEntry } from '../../../actors/loop/memory/memory-entry.js';
import type { Policy } from '../../../actors/loop/policy/policy-service.js';
import type { Sample } from '../../../actors/loop/messages.js';
import { packFloats, packInts } from '../../../actors/loop/packed.js';
import { loadTokenizer } from '../../../model/tokenizer.js';
import { spadePromptFormat } from '../../../model/prompt-format.js';

export const tok = loadTokenizer('bpe-2048');

/** Returns `text` as the completion of whatever prompt it gets; remembers the prompts. */
export function scripted(text: string, contextLength = 2048): Policy & { prompts: number[][] } {
  return scriptedInTurn([text], contextLength);
}

/** Returns `texts[i]` as the i-th completion (the last one repeats): a policy whose output changes between calls. */
export function scriptedInTurn(texts: readonly string[], contextLength = 2048): Policy & { prompts: number[][] } {
  const prompts: number[][] = [];
  return {
    format: spadePromptFormat(tok), contextLength, prompts,
    async sample(prompt): Promise<Sample> {
      const text = texts[Math.min(prompts.length, texts.length - 1)]!;
      prompts.push(prompt);
      const ids = [...tok.encode(text), tok.specialId('<|end_turn|>')];
      return { promptTokens: packInts(prompt), tokens: packInts(ids), logprobs: packFloats(ids.map(() => -1)), versions: packInts(ids.map(() => 2)), text, finishReason: 'stop' };
    },
  };
}

export function memory(entries: MemoryEntry[]) {
  const added: MemoryEntry[] = [];
  return { added, entries: () => entries, add: async (e: MemoryEntry) => (added.push(e), true) };
}

export const known = [
  withEvaluation(newMemoryEntry({ envId: 'env-a', name: 'nim', description: 'Win Nim against a perfect opponent by taking stones.', family: 'games', codeHash: 'x', parents: [], iteration: 0, source: 'library' }), { regret: 0.5, returnHint: 0.9, returnNoHint: 0.4 }),
  newMemoryEntry({ envId: 'env-b', name: 'adder', description: 'Reach the target exactly by adding numbers one per turn.', family: 'reasoning', codeHash: 'y', parents: [], iteration: 0, source: 'designer' }),
];

export const doc = { id: 'doc-7#0', text: 'Arithmetic is the branch of mathematics that studies numbers and operations on them.', source: 'wiki', kind: 'encyclopedic' };
