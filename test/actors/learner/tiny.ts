// A tiny decoder for learner tests (byte tokenizer vocab, so checkpoints load), and helpers to build labeled batches.
import { packFloats, packInts } from '../../../actors/packed.js';
import type { Labeled } from '../../../actors/messages.js';
import type { DecoderConfig } from '../../../model/index.js';

export const TINY: DecoderConfig = { layers: 1, width: 16, heads: 2, contextLength: 32, vocab: 272, ffnHidden: 32 };

/** A one-sample agent trajectory with behaviour log-probs `lp` (default −3 each) sampled at `version`. */
export function traj(trajId: string, tokens: number[], advantage: number, version: number, lp?: number[]): Labeled {
  return {
    trajId, role: 'agent', advantage, reward: advantage,
    samples: [{
      promptTokens: packInts([1, 40, 41]), tokens: packInts(tokens), logprobs: packFloats(lp ?? tokens.map(() => -3)),
      versions: packInts(tokens.map(() => version)), text: '', finishReason: 'stop',
    }],
  };
}
