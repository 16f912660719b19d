// Hugging Face safetensors (one file, or shards with model.safetensors.index.json) to and from the decoder's
// parameters. Two things change on the way: the names (HF `model.layers.0.self_attn.q_proj` is our
// `layers.0.attention.wq`), and the row order of the query and key heads. Hugging Face rotates halves
// (pair j is rows j and j + D/2 of a head); the decoder rotates interleaved pairs (rows 2j and 2j + 1), Meta's
// layout. Permuting q and k the same way leaves every q·k product, and so the model, unchanged.
import { readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CheckpointConfigError, CheckpointError, CorruptFileError, DtypeMismatchError, MissingTensorError, ShapeMismatchError, UnexpectedTensorError } from './errors.js';
import { MAX_SAFETENSORS_HEADER_BYTES, assertFinite, decodeSafetensors, encodeSafetensors, numel, toFloat32 } from './safetensors.js';
import { parameterShapes } from './decoder.js';
import { type ResolvedDecoderConfig } from './decoder-config.js';

export const HF_WEIGHTS = { single: 'model.safetensors', index: 'model.safetensors.index.json' } as const;
export const HF_WEIGHT_DTYPES = ['F32', 'F16', 'BF16'] as const;

const LAYER_NAMES: Array<[string, string]> = [
  ['attention_norm.weight', 'input_layernorm.weight'],
  ['attention.wq.weight', 'self_attn.q_proj.weight'], ['attention.wq.bias', 'self_attn.q_proj.bias'],
  ['attention.wk.weight', 'self_attn.k_proj.weight'], ['attention.wk.bias', 'self_attn.k_proj.bias'],
  ['attention.wv.weight', 'self_attn.v_proj.weight'], ['attention.wv.bias', 'self_attn.v_proj.bias'],
  ['attention.wo.weight', 'self_attn.o_proj.weight'],
  ['attention.q_norm.weight', 'self_attn.q_norm.weight'], ['attention.k_norm.weight', 'self_attn.k_norm.weight'],
  ['ffn_norm.weight', 'post_attention_layernorm.weight'],
  ['feed_forward.w1.weight', 'mlp.gate_proj.weight'], ['feed_forward.w2.weight', 'mlp.down_proj.weight'], ['feed_forward.w3.weight', 'mlp.up_proj.weight'],
];
const TOP_NAMES: Record<string, string> = { 'tok_embeddings.weight': 'model.embed_tokens.weight', 'norm.weight': 'model.norm.weight', 'output.weight': 'lm_head.weight' };

/** Our parameter name -> the Hugging Face tensor name. */
export function hfTensorName(name: string): string {
  const top = TOP_NAMES[name];
  if (top !== undefined) return top;
  const m = /^layers\.(\d+)\.(.+)$/.exec(name);
  const hf = m && LAYER_NAMES.find(([ours]) => ours === m[2]);
  if (!m || !hf) throw new UnexpectedTensorError(name);
  return `model.layers.${m[1]}.${hf[1]}`;
}

/** Rows grouped per head whose order differs between the layouts: q and k projections, their biases and norms. */
const rotated = (name: string): boolean => /attention\.(wq|wk|q_norm|k_norm)\./.test(name);

/**
 * Reorders the rows of a head-major tensor (first axis heads·D; the rest one row each) between the layouts:
 * `toInterleaved` takes Hugging Face's halves to the decoder's pairs, otherwise back.
 */
export function permuteHeads(data: Float32Array, rows: number, headDim: number, toInterleaved: boolean): Float32Array {
  const rowSize = data.length / rows, half = headDim / 2;
  const out = new Float32Array(data.length);
  for (let h = 0; h < rows / headDim; h++) {
    for (let j = 0; j < half; j++) {
      for (let s = 0; s < 2; s++) {
        const inter = h * headDim + 2 * j + s, halves = h * headDim + s * half + j;
        const [from, to] = toInterleaved ? [halves, inter] : [inter, halves];
        out.set(data.subarray(from * rowSize, (from + 1) * rowSize), to * rowSize);
      }
    }
  }
  return out;
}

export interface HfWeights {
  params: Map<string, Float32Array>;
  /** The stored dtype of each tensor, by our name. */
  dtypes: Map<string, string>;
}

/**
 * Reads every tensor the config implies, checking file names, sizes (a file larger than its tensors could be is not
 * read), dtypes, shapes and finiteness; converts to F32 and to the decoder's names and layout.
 */
export async function readHfWeights(dir: string, c: ResolvedDecoderConfig): Promise<HfWeights> {
  const shapes = parameterShapes(c);
  const byHf = new Map([...shapes.keys()].map((n) => [hfTensorName(n), n]));
  const files = await shardPlan(dir, byHf);
  const params = new Map<string, Float32Array>(), dtypes = new Map<string, string>();
  for (const [file, names] of files) {
    const path = join(dir, file);
    const size = (await stat(path).catch(() => undefined))?.size;
    if (size === undefined) throw new CheckpointError(`missing weights file ${file}`, { code: 'CHECKPOINT_READ', file });
    const limit = 8 + MAX_SAFETENSORS_HEADER_BYTES + names.reduce((n, hf) => n + numel(shapes.get(byHf.get(hf)!)!) * 4, 0);
    if (size > limit) throw new CorruptFileError(`${size} bytes, more than the ${limit} its tensors in F32 and the largest header take: not read`, file);
    const contents = decodeSafetensors(await readFile(path), file);
    for (const [hf, t] of contents.tensors) {
      const ours = byHf.get(hf);
      if (ours === undefined) {
        // Rotary caches some older exports carry, and a tied head stored anyway, are derived, not parameters.
        if (hf.endsWith('.rotary_emb.inv_freq') || (hf === 'lm_head.weight' && c.tiedEmbeddings)) continue;
        throw new UnexpectedTensorError(hf, file);
      }
      if (!names.includes(hf)) throw new UnexpectedTensorError(`${hf} (the index places it in another file)`, file);
      if (!(HF_WEIGHT_DTYPES as readonly string[]).includes(t.dtype)) throw new DtypeMismatchError(hf, HF_WEIGHT_DTYPES, t.dtype, file);
      const want = shapes.get(ours)!;
      if (want.length !== t.shape.length || want.some((d, i) => d !== t.shape[i])) throw new ShapeMismatchError(hf, want, t.shape, file);
      let values = toFloat32(t, hf, file);
      assertFinite(values, hf, file);
      if (rotated(ours)) values = permuteHeads(values, want[0]!, c.headDim, true);
      params.set(ours, values);
      dtypes.set(ours, t.dtype);
    }
  }
  for (const [hf, ours] of byHf) if (!params.has(ours)) throw new MissingTensorError(hf, files.size === 1 ? [...files.keys()][0] : HF_WEIGHTS.index);
  return { params, dtypes };
}

/** Which file holds which Hugging Face tensor: the index's weight_map, or everything in model.safetensors. */
async function shardPlan(dir: string, byHf: ReadonlyMap<string, string>): Promise<Map<string, string[]>> {
  const indexText = await readFile(join(dir, HF_WEIGHTS.index), 'utf8').catch(() => undefined);
  if (indexText === undefined) return new Map([[HF_WEIGHTS.single, [...byHf.keys()]]]);
  let index: { weight_map?: unknown };
  try {
    index = JSON.parse(indexText) as { weight_map?: unknown };
  } catch (cause) {
    throw new CheckpointConfigError(`not valid JSON (${(cause as Error).message})`, HF_WEIGHTS.index, undefined, cause);
  }
  const map = index.weight_map;
  if (map === null || typeof map !== 'object') throw new CheckpointConfigError('weight_map must be an object', HF_WEIGHTS.index, 'weight_map');
  const plan = new Map<string, string[]>();
  for (const [hf, file] of Object.entries(map as Record<string, unknown>)) {
    // A shard is a plain file name inside the directory: no paths out of it.
    if (typeof file !== 'string' || !/^[\w.-]+\.safetensors$/.test(file) || basename(file) !== file) {
      throw new CheckpointConfigError(`weight_map["${hf}"] must name a .safetensors file in the directory (got ${JSON.stringify(file)})`, HF_WEIGHTS.index, `weight_map.${hf}`);
    }
    plan.set(file, [...(plan.get(file) ?? []), hf]);
  }
  return plan;
}

/**
 * The decoder's parameters as Hugging Face tensors (F32, HF names and layout), one model.safetensors; a tied
 * model has no lm_head.weight, as transformers saves it.
 */
export function encodeHfWeights(c: ResolvedDecoderConfig, params: ReadonlyMap<string, Float32Array>): Uint8Array {
  const tensors: Array<[string, { shape: readonly number[]; data: Float32Array }]> = [];
  for (const [name, shape] of parameterShapes(c)) {
    const data = params.get(name);
    if (data === undefined) throw new MissingTensorError(name, HF_WEIGHTS.single);
    if (data.length !== numel(shape)) throw new ShapeMismatchError(name, shape, [data.length], HF_WEIGHTS.single);
    assertFinite(data, name, HF_WEIGHTS.single);
    tensors.push([hfTensorName(name), { shape, data: rotated(name) ? permuteHeads(data, shape[0]!, c.headDim, false) : data }]);
  }
  return encodeSafetensors(tensors, { format: 'pt' });
}
