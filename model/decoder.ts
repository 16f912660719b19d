// The Llama-style decoder (RMSNorm, rotary positions, SwiGLU, causal attention with grouped KV heads, tied
// embeddings), written once and built as two graphs: training (log-probs + parameter gradients) and sampling (KV cache).
// Legend: B batch, T time, S new tokens, P cached tokens, C channels, H heads, K kv heads, G heads per kv head,
// D head size, F feed-forward width, V vocab.
import { ModelOptionError } from './errors.js';
import { Graph, concat, gradients, where, type Tensor } from './graph/index.js';

export interface DecoderConfig {
  layers: number;
  width: number;
  heads: number;
  /** Key/value heads; fewer than `heads` gives grouped-query attention. Defaults to `heads`. */
  kvHeads?: number;
  contextLength: number;
  vocab: number;
  /** SwiGLU hidden width; defaults to Llama's rule (2/3 of 4·width, rounded up to a multiple of 32). */
  ffnHidden?: number;
  normEps?: number;
  ropeTheta?: number;
}

export type ResolvedDecoderConfig = Required<DecoderConfig>;

export const DEFAULT_DECODER_CONFIG: Omit<ResolvedDecoderConfig, 'kvHeads' | 'ffnHidden'> = {
  layers: 4, width: 256, heads: 8, contextLength: 512, vocab: 512, normEps: 1e-5, ropeTheta: 10000,
};

const posInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

export function validateDecoderConfig(config: Partial<DecoderConfig> = {}): ResolvedDecoderConfig {
  const c = { ...DEFAULT_DECODER_CONFIG, ...config };
  for (const f of ['layers', 'width', 'heads', 'contextLength', 'vocab'] as const) {
    if (!posInt(c[f])) throw new ModelOptionError(`decoder.${f}`, 'a positive integer', c[f]);
  }
  const kvHeads = c.kvHeads ?? c.heads;
  if (!posInt(kvHeads) || c.heads % kvHeads !== 0) throw new ModelOptionError('decoder.kvHeads', `a positive divisor of heads (${c.heads})`, kvHeads);
  if (c.width % c.heads !== 0 || (c.width / c.heads) % 2 !== 0) {
    throw new ModelOptionError('decoder.width', `a multiple of heads (${c.heads}) with an even head size`, c.width);
  }
  const ffnHidden = c.ffnHidden ?? 32 * Math.ceil((2 * 4 * c.width) / 3 / 32);
  if (!posInt(ffnHidden)) throw new ModelOptionError('decoder.ffnHidden', 'a positive integer', ffnHidden);
  if (!(c.normEps > 0)) throw new ModelOptionError('decoder.normEps', 'a positive number', c.normEps);
  if (!(c.ropeTheta > 0)) throw new ModelOptionError('decoder.ropeTheta', 'a positive number', c.ropeTheta);
  return { ...c, kvHeads, ffnHidden };
}

/** Parameter names (Llama checkpoint keys) and shapes, in checkpoint order. Linear weights are [out, in]. */
export function parameterShapes(config: DecoderConfig): Map<string, number[]> {
  const c = validateDecoderConfig(config);
  const kv = (c.width / c.heads) * c.kvHeads;
  const m = new Map<string, number[]>([['tok_embeddings.weight', [c.vocab, c.width]]]);
  for (let i = 0; i < c.layers; i++) {
    const l = `layers.${i}`;
    m.set(`${l}.attention_norm.weight`, [c.width]);
    m.set(`${l}.attention.wq.weight`, [c.width, c.width]);
    m.set(`${l}.attention.wk.weight`, [kv, c.width]);
    m.set(`${l}.attention.wv.weight`, [kv, c.width]);
    m.set(`${l}.attention.wo.weight`, [c.width, c.width]);
    m.set(`${l}.ffn_norm.weight`, [c.width]);
    m.set(`${l}.feed_forward.w1.weight`, [c.ffnHidden, c.width]);
    m.set(`${l}.feed_forward.w2.weight`, [c.width, c.ffnHidden]);
    m.set(`${l}.feed_forward.w3.weight`, [c.ffnHidden, c.width]);
  }
  m.set('norm.weight', [c.width]);
  return m;
}

/** Seeded initial weights: norms at 1, N(0, 0.02) elsewhere, residual projections scaled by 1/sqrt(2·layers). */
export function initParameters(config: DecoderConfig, seed = 0): Map<string, Float32Array> {
  const c = validateDecoderConfig(config);
  let s = (seed ^ 0x9e3779b9) >>> 0;
  const uniform = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const normal = (): number => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const out = new Map<string, Float32Array>();
  for (const [name, shape] of parameterShapes(c)) {
    const a = new Float32Array(shape.reduce((p, q) => p * q, 1));
    if (name.endsWith('norm.weight')) a.fill(1);
    else {
      const std = /wo|w2/.test(name) ? 0.02 / Math.sqrt(2 * c.layers) : 0.02;
      for (let i = 0; i < a.length; i++) a[i] = normal() * std;
    }
    out.set(name, a);
  }
  return out;
}

// ------------------------------------------------------------------ layers (one definition for both graphs)

type Params = Map<string, Tensor>;

/** Per-graph plumbing: rotary tables at the tokens' positions, and how queries meet keys (with or without a cache). */
interface Ctx {
  c: ResolvedDecoderConfig;
  cos: Tensor; // (…, T, 1, D/2, 1), broadcasting over heads
  sin: Tensor; // (…, T, 1, D/2, 1)
  /** q (B, K, G, T, D), k and v (B, K, T, D) -> attention output (B, K, G, T, D). */
  attend: (layer: number, q: Tensor, k: Tensor, v: Tensor) => Tensor;
}

function rmsnorm(x: Tensor, w: Tensor, eps: number): Tensor {
  const rms = x.mul(x).mean([-1], true).add(eps).sqrt(); // (B, T, 1)
  return x.div(rms).mul(w); // (B, T, C)
}

/** Rotates interleaved pairs (Meta Llama layout) of x: (B, T, heads, D/2, 2). */
function rope(x: Tensor, ctx: Ctx): Tensor {
  const x0 = x.slice(-1, 0, 1); // (B, T, heads, D/2, 1)
  const x1 = x.slice(-1, 1, 2); // (B, T, heads, D/2, 1)
  const r0 = x0.mul(ctx.cos).sub(x1.mul(ctx.sin)); // (B, T, heads, D/2, 1)
  const r1 = x0.mul(ctx.sin).add(x1.mul(ctx.cos)); // (B, T, heads, D/2, 1)
  return concat([r0, r1], -1); // (B, T, heads, D/2, 2)
}

function attention(x: Tensor, p: Params, i: number, ctx: Ctx): Tensor {
  const { heads: H, kvHeads: K, width: C } = ctx.c;
  const D = C / H, G = H / K;
  const w = (n: string): Tensor => p.get(`layers.${i}.attention.${n}.weight`)!;
  const [B, T] = x.shape as [string, string];
  const q = x.matmul(w('wq').mT()); // (B, T, C)
  const k = x.matmul(w('wk').mT()); // (B, T, K*D)
  const v = x.matmul(w('wv').mT()); // (B, T, K*D)
  const qr = rope(q.reshape([B, T, H, D / 2, 2]), ctx).reshape([B, T, K, G, D]).transpose([0, 2, 3, 1, 4]); // (B, K, G, T, D)
  const kr = rope(k.reshape([B, T, K, D / 2, 2]), ctx).reshape([B, T, K, D]).transpose([0, 2, 1, 3]); // (B, K, T, D)
  const vr = v.reshape([B, T, K, D]).transpose([0, 2, 1, 3]); // (B, K, T, D)
  const y = ctx.attend(i, qr, kr, vr); // (B, K, G, T, D)
  return y.transpose([0, 3, 1, 2, 4]).reshape([B, T, C]).matmul(w('wo').mT()); // (B, T, C)
}

function feedForward(x: Tensor, p: Params, i: number): Tensor {
  const w = (n: string): Tensor => p.get(`layers.${i}.feed_forward.${n}.weight`)!;
  const a = x.matmul(w('w1').mT()); // (B, T, F)
  const gate = a.mul(a.sigmoid()).mul(x.matmul(w('w3').mT())); // (B, T, F): SiLU(x·w1) * (x·w3)
  return gate.matmul(w('w2').mT()); // (B, T, C)
}

/** Embeddings through every block and the final norm: (B, T) ids -> (B, T, C). */
function trunk(tokens: Tensor, p: Params, ctx: Ctx): Tensor {
  let x = p.get('tok_embeddings.weight')!.gather(tokens); // (B, T, C)
  for (let i = 0; i < ctx.c.layers; i++) {
    x = x.add(attention(rmsnorm(x, p.get(`layers.${i}.attention_norm.weight`)!, ctx.c.normEps), p, i, ctx)); // (B, T, C)
    x = x.add(feedForward(rmsnorm(x, p.get(`layers.${i}.ffn_norm.weight`)!, ctx.c.normEps), p, i)); // (B, T, C)
  }
  return rmsnorm(x, p.get('norm.weight')!, ctx.c.normEps); // (B, T, C)
}

/** Tied output head: (…, C) -> log-probabilities (…, V). */
const head = (x: Tensor, p: Params): Tensor => x.matmul(p.get('tok_embeddings.weight')!.mT()).logSoftmax(-1);

function ropeTables(g: Graph, c: ResolvedDecoderConfig): [Tensor, Tensor] {
  const half = c.width / c.heads / 2;
  const cos = new Float64Array(c.contextLength * half), sin = new Float64Array(c.contextLength * half);
  for (let t = 0; t < c.contextLength; t++) {
    for (let j = 0; j < half; j++) {
      const a = t / Math.pow(c.ropeTheta, (2 * j) / (2 * half));
      cos[t * half + j] = Math.cos(a);
      sin[t * half + j] = Math.sin(a);
    }
  }
  const make = (a: Float64Array): Tensor => g.constant(g.float === 'float64' ? a : Float32Array.from(a), g.float, [c.contextLength, half]);
  return [make(cos), make(sin)]; // (ctx, D/2) each
}

function weightInputs(g: Graph, c: ResolvedDecoderConfig): Params {
  return new Map([...parameterShapes(c)].map(([n, s]) => [n, g.input(n, g.float, s)]));
}

// ------------------------------------------------------------------ the two graphs

export interface TrainingGraph {
  graph: Graph;
  /** Outputs: logp (B, T-1), loss (scalar, masked mean NLL), and `grad.<name>` per parameter. */
  outputs: Record<string, Tensor>;
}

/**
 * Inputs: tokens int64 (B, T); loss_mask and dlogp float (B, T-1); one input per parameter. The gradients are
 * those of sum(loss_mask · dlogp · logp): the RL objective stays in TypeScript and supplies dlogp.
 */
export function buildTrainingGraph(config: DecoderConfig, dtype: 'float32' | 'float64' = 'float32'): TrainingGraph {
  const c = validateDecoderConfig(config);
  const g = new Graph(dtype);
  const tokens = g.input('tokens', 'int64', ['B', 'T']);
  const mask = g.input('loss_mask', dtype, ['B', 'T-1']);
  const dlogp = g.input('dlogp', dtype, ['B', 'T-1']);
  const p = weightInputs(g, c);
  const tLen = g.node('Gather', [tokens.shapeOf(), g.scalar(1, 'int64')], { attrs: { axis: 0 }, outputs: [{ dtype: 'int64', shape: [] }] })[0]!;
  const pos = g.node('Range', [g.scalar(0, 'int64'), tLen, g.scalar(1, 'int64')], { outputs: [{ dtype: 'int64', shape: ['T'] }] })[0]!; // (T)
  const causal = g.node('GreaterOrEqual', [pos.unsqueeze([1]), pos.unsqueeze([0])], { outputs: [{ dtype: 'bool', shape: ['T', 'T'] }] })[0]!; // (T, T)
  const [cosT, sinT] = ropeTables(g, c);
  const D = c.width / c.heads;
  const bias = where(causal, 0, -1e9); // (T, T)
  const ctx: Ctx = {
    c,
    cos: cosT.gather(pos).reshape(['T', 1, D / 2, 1]), // (T, 1, D/2, 1)
    sin: sinT.gather(pos).reshape(['T', 1, D / 2, 1]), // (T, 1, D/2, 1)
    attend: (_, q, k, v) => {
      const att = q.matmul(k.unsqueeze([2]).mT()).mul(1 / Math.sqrt(D)).add(bias); // (B, K, G, T, T)
      return att.softmax(-1).matmul(v.unsqueeze([2])); // (B, K, G, T, D)
    },
  };
  const x = trunk(tokens, p, ctx).slice(1, 0, -1); // (B, T-1, C): the last position predicts nothing we score
  const targets = tokens.slice(1, 1, Infinity).unsqueeze([-1]); // (B, T-1, 1)
  const logp = head(x, p).gatherElements(targets, -1).squeeze([-1]); // (B, T-1)
  const weighted = logp.mul(mask); // (B, T-1)
  const loss = weighted.sum([0, 1]).neg().div(mask.sum([0, 1]).add(1e-9)); // ()
  const names = [...p.keys()];
  const grads = gradients([logp], [dlogp.mul(mask)], names.map((n) => p.get(n)!));
  const outputs: Record<string, Tensor> = { logp, loss };
  names.forEach((n, i) => (outputs[`grad.${n}`] = grads[i]!));
  return { graph: g, outputs };
}

export interface SamplingGraph {
  graph: Graph;
  /** Outputs: logp_last (B, V) for the last new position, and `new.<i>.k` / `new.<i>.v` (B, K, S, D), the new tokens' keys/values. */
  outputs: Record<string, Tensor>;
}

/**
 * One graph for prefill (P = 0, S = prompt) and decode (S = 1). Inputs: tokens and positions int64 (B, S),
 * attn_bias float (B, S, P+S) (0 = attend, -1e9 = masked: causal order, padding and unused cache slots are the
 * caller's choice), `past.<i>.k` / `past.<i>.v` (B, K, P, D) per layer, and the parameters. The cache is read,
 * never copied: attention is split into a past part and a new part, and only the new keys/values come out, so a
 * caller can keep the cache in preallocated buffers and append in place.
 */
export function buildSamplingGraph(config: DecoderConfig, dtype: 'float32' | 'float64' = 'float32'): SamplingGraph {
  const c = validateDecoderConfig(config);
  const g = new Graph(dtype);
  const D = c.width / c.heads;
  const tokens = g.input('tokens', 'int64', ['B', 'S']);
  const positions = g.input('positions', 'int64', ['B', 'S']);
  const bias = g.input('attn_bias', dtype, ['B', 'S', 'P+S']).unsqueeze([1, 2]); // (B, 1, 1, S, P+S)
  const p = weightInputs(g, c);
  const [cosT, sinT] = ropeTables(g, c);
  const outputs: Record<string, Tensor> = {};
  const ctx: Ctx = {
    c,
    cos: cosT.gather(positions).reshape(['B', 'S', 1, D / 2, 1]), // (B, S, 1, D/2, 1)
    sin: sinT.gather(positions).reshape(['B', 'S', 1, D / 2, 1]), // (B, S, 1, D/2, 1)
    attend: (i, q, k, v) => {
      const pk = g.input(`past.${i}.k`, dtype, ['B', c.kvHeads, 'P', D]);
      const pv = g.input(`past.${i}.v`, dtype, ['B', c.kvHeads, 'P', D]);
      outputs[`new.${i}.k`] = k;
      outputs[`new.${i}.v`] = v;
      const scores = concat([q.matmul(pk.unsqueeze([2]).mT()), q.matmul(k.unsqueeze([2]).mT())], -1); // (B, K, G, S, P+S)
      const probs = scores.mul(1 / Math.sqrt(D)).add(bias).softmax(-1); // (B, K, G, S, P+S)
      const sizes = concat([pk.shapeOf().slice(0, 2, 3), k.shapeOf().slice(0, 2, 3)], 0); // (2): [P, S]
      const [toPast, toNew] = g.node('Split', [probs, sizes], {
        attrs: { axis: 4 },
        outputs: [{ dtype, shape: [...probs.shape.slice(0, 4), 'P'] }, { dtype, shape: [...probs.shape.slice(0, 4), 'S'] }],
      }) as [Tensor, Tensor];
      return toPast.matmul(pv.unsqueeze([2])).add(toNew.matmul(v.unsqueeze([2]))); // (B, K, G, S, D)
    },
  };
  const last = trunk(tokens, p, ctx).slice(1, -1, Infinity); // (B, 1, C)
  outputs['logp_last'] = head(last, p).squeeze([1]); // (B, V)
  return { graph: g, outputs };
}
