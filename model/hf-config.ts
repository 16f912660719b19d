// A Hugging Face `config.json` (llama, qwen2, qwen3) read into the decoder's config and written back out:
// what the engine does not compute is refused here, naming the field, before any weight is read.
import { isDeepStrictEqual } from 'node:util';
import { CheckpointConfigError, UnsupportedModelError } from './errors.js';
import { validateDecoderConfig, type DecoderConfig, type ResolvedDecoderConfig, type RopeScaling } from './decoder-config.js';

export const HF_MODEL_TYPES = ['llama', 'qwen2', 'qwen3'] as const;
export type HfModelType = (typeof HF_MODEL_TYPES)[number];

const ARCHITECTURES: Record<HfModelType, string> = { llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM' };
const FILE = 'config.json';

/** True when a parsed config.json is a Hugging Face one (it names a model_type and is not a SPADE checkpoint's). */
export const isHfConfig = (json: unknown): json is Record<string, unknown> =>
  json !== null && typeof json === 'object' && typeof (json as Record<string, unknown>).model_type === 'string' && !('format' in json);

/** The decoder config a Hugging Face config describes, or a typed error naming the field the engine cannot take. */
export function decoderConfigFromHf(hf: Record<string, unknown>): ResolvedDecoderConfig {
  const type = hf.model_type as string;
  if (!(HF_MODEL_TYPES as readonly string[]).includes(type)) throw new UnsupportedModelError('model_type', `"${type}" (supported: ${HF_MODEL_TYPES.join(', ')})`);
  const int = (field: string, fallback?: number): number => {
    const v = hf[field] ?? fallback;
    if (!(typeof v === 'number' && Number.isInteger(v) && v > 0)) throw new CheckpointConfigError(`${field} must be a positive integer (got ${JSON.stringify(v)})`, FILE, field);
    return v;
  };
  const num = (field: string, fallback: number): number => {
    const v = hf[field] ?? fallback;
    if (!(typeof v === 'number' && v > 0)) throw new CheckpointConfigError(`${field} must be a positive number (got ${JSON.stringify(v)})`, FILE, field);
    return v;
  };
  const act = hf.hidden_act ?? 'silu';
  if (act !== 'silu') throw new UnsupportedModelError('hidden_act', `"${String(act)}" (the engine computes SwiGLU with silu)`);
  if (hf.mlp_bias === true) throw new UnsupportedModelError('mlp_bias', 'true (the feed-forward projections have no biases here)');
  // Llama's and Qwen3's attention_bias puts a bias on the output projection too; Qwen2 has q/k/v biases always.
  if (type !== 'qwen2' && hf.attention_bias === true) throw new UnsupportedModelError('attention_bias', `true for ${type} (an output-projection bias is not computed)`);
  if (hf.use_sliding_window === true) throw new UnsupportedModelError('use_sliding_window', 'true (attention here is full causal)');
  const width = int('hidden_size'), heads = int('num_attention_heads');
  const params = hf.rope_parameters as Record<string, unknown> | undefined; // transformers 5 keeps theta and scaling here
  const config: DecoderConfig = {
    layers: int('num_hidden_layers'),
    width,
    heads,
    kvHeads: int('num_key_value_heads', heads),
    headDim: int('head_dim', width / heads),
    ffnHidden: int('intermediate_size'),
    vocab: int('vocab_size'),
    contextLength: int('max_position_embeddings'),
    normEps: num('rms_norm_eps', 1e-6),
    ropeTheta: typeof params?.rope_theta === 'number' ? params.rope_theta : num('rope_theta', 10000),
    ropeScaling: ropeScalingFromHf(hf.rope_scaling ?? params),
    qkvBias: type === 'qwen2',
    qkNorm: type === 'qwen3',
    tiedEmbeddings: hf.tie_word_embeddings === true,
  };
  if (config.kvHeads! > heads || heads % config.kvHeads! !== 0) throw new CheckpointConfigError(`num_key_value_heads ${config.kvHeads} does not divide num_attention_heads ${heads}`, FILE, 'num_key_value_heads');
  try {
    return validateDecoderConfig(config);
  } catch (cause) {
    throw new CheckpointConfigError((cause as Error).message, FILE, undefined, cause);
  }
}

function ropeScalingFromHf(raw: unknown): RopeScaling | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'object') throw new CheckpointConfigError('rope_scaling must be an object or null', FILE, 'rope_scaling');
  const r = raw as Record<string, unknown>;
  const type = r.rope_type ?? r.type ?? 'default';
  const num = (f: string): number => {
    if (!(typeof r[f] === 'number' && (r[f] as number) > 0)) throw new CheckpointConfigError(`rope_scaling.${f} must be a positive number`, FILE, `rope_scaling.${f}`);
    return r[f] as number;
  };
  if (type === 'default') return null;
  if (type === 'linear') return { type, factor: num('factor') };
  if (type === 'llama3') {
    return { type, factor: num('factor'), lowFreqFactor: num('low_freq_factor'), highFreqFactor: num('high_freq_factor'), originalContextLength: num('original_max_position_embeddings') };
  }
  throw new UnsupportedModelError('rope_scaling.rope_type', `"${String(type)}" (supported: default, linear, llama3)`);
}

/** The dtype fields of a config.json (transformers 4 writes torch_dtype, 5 writes dtype): what the written tensors are. */
const DTYPE_FIELDS = ['torch_dtype', 'dtype'] as const;

/**
 * The Hugging Face config of a decoder config: qwen3 when it has q/k norms, qwen2 when it has q/k/v biases, llama
 * otherwise. `base` (an imported model's own config.json) keeps its other fields (token ids, generation settings).
 * When `base` describes exactly this decoder (an imported model after training: weights change, the architecture
 * does not), it is written back as it came, every field as stored (rope_scaling, head_dim or its absence,
 * rope_parameters, token ids, flags), except the dtype, which says what the tensors now are: float32.
 */
export function hfConfigFromDecoder(c: ResolvedDecoderConfig, base: Record<string, unknown> = {}): Record<string, unknown> {
  if (c.qkNorm && c.qkvBias) throw new UnsupportedModelError('qkvBias', 'q/k/v biases together with q/k norms match no Hugging Face model type', 'model');
  if (describes(base, c)) return float32({ ...base });
  const type: HfModelType = c.qkNorm ? 'qwen3' : c.qkvBias ? 'qwen2' : 'llama';
  const out: Record<string, unknown> = { ...base };
  delete out.rope_parameters;
  Object.assign(out, {
    architectures: [ARCHITECTURES[type]],
    model_type: type,
    hidden_size: c.width,
    intermediate_size: c.ffnHidden,
    num_hidden_layers: c.layers,
    num_attention_heads: c.heads,
    num_key_value_heads: c.kvHeads,
    head_dim: c.headDim,
    hidden_act: 'silu',
    max_position_embeddings: c.contextLength,
    rms_norm_eps: c.normEps,
    rope_theta: c.ropeTheta,
    rope_scaling: ropeScalingToHf(c.ropeScaling),
    tie_word_embeddings: c.tiedEmbeddings,
    vocab_size: c.vocab,
  });
  if (type !== 'qwen2') Object.assign(out, { attention_bias: false, mlp_bias: false });
  if (type !== 'llama') out.use_sliding_window = false;
  return float32(out);
}

/** Every dtype field the config has says float32, what the exported tensors are (torch_dtype when it has none). */
function float32(out: Record<string, unknown>): Record<string, unknown> {
  for (const f of DTYPE_FIELDS) if (f in out) out[f] = 'float32';
  if (!DTYPE_FIELDS.some((f) => f in out)) out.torch_dtype = 'float32';
  return out;
}

/** True when `base` is a Hugging Face config that reads as exactly `c`. */
function describes(base: Record<string, unknown>, c: ResolvedDecoderConfig): boolean {
  if (!isHfConfig(base)) return false;
  try {
    return isDeepStrictEqual(decoderConfigFromHf(base), c);
  } catch {
    return false; // a base the engine cannot read describes nothing it runs
  }
}

function ropeScalingToHf(r: RopeScaling | null): Record<string, unknown> | null {
  if (r === null) return null;
  if (r.type === 'linear') return { rope_type: 'linear', factor: r.factor };
  return {
    rope_type: 'llama3', factor: r.factor, low_freq_factor: r.lowFreqFactor, high_freq_factor: r.highFreqFactor,
    original_max_position_embeddings: r.originalContextLength,
  };
}
