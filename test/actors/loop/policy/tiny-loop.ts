// Loop options for tests: a tiny freshly initialised model (no checkpoint), short generations, a local sandbox.
import { validateLoopOptions, type LoopOptions, type LoopOptionsInput } from '../../../../actors/loop/options.js';

export const TINY_POLICY: LoopOptions['policy'] = {
  ...validateLoopOptions().policy,
  checkpoint: null,
  init: { layers: 1, width: 32, heads: 2, contextLength: 384, seed: 1 },
  maxBatch: 16,
  threads: 1,
  weightSync: false,
};

export function tinyLoop(over: LoopOptionsInput = {}): LoopOptions {
  return validateLoopOptions({
    ...over,
    policy: { ...TINY_POLICY, ...over.policy },
    designer: { maxTokens: 24, validationSeeds: 4, ...over.designer },
    agent: { maxTokens: 8, ...over.agent },
    sandbox: { mode: 'local', workers: 1, ...over.sandbox },
  });
}
