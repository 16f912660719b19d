// The decoder's shape: its config (Llama's fields, and the Hugging Face ones the loader maps onto them), the policy
// model's default, and the check that fills a partial config in and names the first bad field.
import { ModelOptionError } from './errors.js';

export interface DecoderConfig {
  layers: number;
  width: number;
  heads: number;
  /** Key/value heads; fewer than `heads` gives grouped-query attention. Defaults to `heads` (the default model's when heads is not given either). */
  kvHeads?: number;
  contextLength: number;
  vocab: number;
  /** SwiGLU hidden width; defaults to Llama's rule (2/3 of 4·width, rounded up to a multiple of 32). */
  ffnHidden?: number;
  normEps?: number;
  ropeTheta?: number;
  /** Rotary frequency scaling (Hugging Face `rope_scaling`); null or absent: none. */
  ropeScaling?: RopeScaling | null;
  /** Size of one attention head; defaults to width / heads (Qwen3 and some Llamas set it apart). */
  headDim?: number;
  /** Biases on the query, key and value projections (Qwen2). Default false. */
  qkvBias?: boolean;
  /** RMSNorm over each query and key head before the rotation (Qwen3). Default false. */
  qkNorm?: boolean;
  /** The output head is the embedding (true, the default) or its own `output.weight` (false). */
  tiedEmbeddings?: boolean;
}

/** `linear` divides positions by factor; `llama3` rescales low frequencies as Llama 3.1 does. */
export type RopeScaling =
  | { type: 'linear'; factor: number }
  | { type: 'llama3'; factor: number; lowFreqFactor: number; highFreqFactor: number; originalContextLength: number };

export type ResolvedDecoderConfig = Required<DecoderConfig>;

/**
 * The policy model's shape, the one default everywhere: what the warm start trains (model/checkpoints/base has it),
 * and what the samplers and the learner initialise when they start without a checkpoint. The vocab comes from the
 * tokenizer.
 */
export const DEFAULT_POLICY_MODEL = { layers: 4, width: 256, heads: 8, kvHeads: 4, contextLength: 2560 } as const;

/** What a config leaves out is filled from: the policy model with the default tokenizer's vocab (bpe-2048). */
export const DEFAULT_DECODER_CONFIG: Omit<ResolvedDecoderConfig, 'ffnHidden' | 'headDim'> = {
  ...DEFAULT_POLICY_MODEL, vocab: 2048, normEps: 1e-5, ropeTheta: 10000, ropeScaling: null, qkvBias: false, qkNorm: false, tiedEmbeddings: true,
};

const posInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

export function validateDecoderConfig(config: Partial<DecoderConfig> = {}): ResolvedDecoderConfig {
  const c = { ...DEFAULT_DECODER_CONFIG, ...config };
  for (const f of ['layers', 'width', 'heads', 'contextLength', 'vocab'] as const) {
    if (!posInt(c[f])) throw new ModelOptionError(`decoder.${f}`, 'a positive integer', c[f]);
  }
  // A config that names its heads but not its kv heads has one kv head per head.
  const kvHeads = config.kvHeads ?? (config.heads === undefined ? DEFAULT_DECODER_CONFIG.kvHeads : c.heads);
  if (!posInt(kvHeads) || c.heads % kvHeads !== 0) throw new ModelOptionError('decoder.kvHeads', `a positive divisor of heads (${c.heads})`, kvHeads);
  const headDim = config.headDim ?? c.width / c.heads;
  if (config.headDim === undefined && (c.width % c.heads !== 0 || (c.width / c.heads) % 2 !== 0)) {
    throw new ModelOptionError('decoder.width', `a multiple of heads (${c.heads}) with an even head size`, c.width);
  }
  if (!posInt(headDim) || headDim % 2 !== 0) throw new ModelOptionError('decoder.headDim', 'a positive even integer', headDim);
  for (const f of ['qkvBias', 'qkNorm', 'tiedEmbeddings'] as const) {
    if (typeof c[f] !== 'boolean') throw new ModelOptionError(`decoder.${f}`, 'a boolean', c[f]);
  }
  validateRopeScaling(c.ropeScaling);
  const ffnHidden = c.ffnHidden ?? 32 * Math.ceil((2 * 4 * c.width) / 3 / 32);
  if (!posInt(ffnHidden)) throw new ModelOptionError('decoder.ffnHidden', 'a positive integer', ffnHidden);
  if (!(c.normEps > 0)) throw new ModelOptionError('decoder.normEps', 'a positive number', c.normEps);
  if (!(c.ropeTheta > 0)) throw new ModelOptionError('decoder.ropeTheta', 'a positive number', c.ropeTheta);
  return { ...c, kvHeads, ffnHidden, headDim };
}

function validateRopeScaling(r: RopeScaling | null): void {
  if (r === null) return;
  if (r === undefined || typeof r !== 'object') throw new ModelOptionError('decoder.ropeScaling', 'null or an object', r);
  if (r.type !== 'linear' && r.type !== 'llama3') throw new ModelOptionError('decoder.ropeScaling.type', '"linear" or "llama3"', (r as { type: unknown }).type);
  const fields = r.type === 'linear' ? ['factor'] as const : ['factor', 'lowFreqFactor', 'highFreqFactor', 'originalContextLength'] as const;
  for (const f of fields) {
    const v = (r as Record<string, unknown>)[f];
    if (!(typeof v === 'number' && v > 0)) throw new ModelOptionError(`decoder.ropeScaling.${f}`, 'a positive number', v);
  }
}
