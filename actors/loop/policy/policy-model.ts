// Which model the policy runs, decided once for the samplers (policy service) and the learner alike, so the weights
// the learner publishes fit what the samplers run: the base checkpoint when it exists, else a freshly initialised
// decoder of loop.policy.init's shape with the tokenizer's vocab.
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { loadTokenizer, type DecoderConfig, type Tokenizer } from '../../../model/index.js';
import { repoPath } from '../../../runtime/paths.js';
import type { LoopOptions } from '../options.js';

export type PolicyModel =
  | { kind: 'checkpoint'; dir: string }
  | {
      kind: 'init';
      config: DecoderConfig;
      tokenizer: Tokenizer;
      seed: number;
      /** The checkpoint directory that was asked for and does not exist (null: none was asked for). */
      missing: string | null;
    };

/** The checkpoint directory of `loop.policy.checkpoint` (relative to the repo root unless absolute), or null. */
export const policyCheckpointDir = (p: LoopOptions['policy']): string | null =>
  p.checkpoint === null ? null : isAbsolute(p.checkpoint) ? p.checkpoint : repoPath(p.checkpoint);

export function resolvePolicyModel(p: LoopOptions['policy']): PolicyModel {
  const dir = policyCheckpointDir(p);
  if (dir !== null && existsSync(dir)) return { kind: 'checkpoint', dir };
  const tokenizer = loadTokenizer(p.tokenizer);
  const { seed, ...shape } = p.init;
  return { kind: 'init', config: { ...shape, vocab: tokenizer.vocabSize }, tokenizer, seed, missing: dir };
}
