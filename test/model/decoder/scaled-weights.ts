// Shared by the baked-weights tests: a small GQA decoder config and initial weights scaled up (norms aside) so
// that attention is far from uniform.
import { initParameters } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import type { Weights } from '../../../model/session.js';

export const config: DecoderConfig = { layers: 2, width: 32, heads: 4, kvHeads: 2, contextLength: 32, vocab: 40, ffnHidden: 48 };

export function scaled(seed: number): Weights {
  const w = initParameters(config, seed);
  for (const [n, a] of w) if (!n.includes('norm')) for (let i = 0; i < a.length; i++) a[i] = a[i]! * 15;
  return w;
}
