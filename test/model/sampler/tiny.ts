// A tiny decoder, weights that make greedy outputs vary, a one-letter-per-token codec, and the sampler on its own
// thread over them, for sampler tests.
import { initParameters } from '../../../model/decoder.js';
import { validateDecoderConfig, type DecoderConfig } from '../../../model/decoder-config.js';
import type { TextCodec } from '../../../model/sampler/sampler.js';
import { ThreadSampler } from '../../../model/sampler/thread.js';

export const TINY: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 48, vocab: 26, ffnHidden: 48 };

export function tinyWeights(seed: number): Map<string, Float32Array> {
  const w = initParameters(TINY, seed);
  for (const [n, a] of w) if (!n.includes('norm')) for (let i = 0; i < a.length; i++) a[i] = a[i]! * 20;
  return w;
}

export const LETTERS: TextCodec = {
  encode: (s) => [...s].map((c) => c.charCodeAt(0) - 97),
  decode: (ids) => Array.from(ids, (i) => String.fromCharCode(97 + i)).join(''),
};

/** A ThreadSampler of TINY on seed-1 weights at `version`, sampling with seed 5, stop token 25 and LETTERS. */
export const startThreadSampler = (version = 3): Promise<ThreadSampler> =>
  ThreadSampler.start({ config: validateDecoderConfig(TINY), weights: tinyWeights(1), version, sampler: { seed: 5, stopTokens: [25] }, codec: LETTERS });
