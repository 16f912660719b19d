// The Llama-style decoder (RMSNorm, rotary positions, SwiGLU, causal attention with grouped KV heads, tied
// embeddings), written once and built as two graphs: training (log-probs + parameter gradients) and sampling (KV cache).
// Legend: B batch, T time, S new tokens, P cached tokens, C channels, H heads, K kv heads, G heads per kv head,
// D head size, F feed-forward width, V vocab.
// Its config and defaults are decoder-config.ts.
import { validateDecoderConfig, type DecoderConfig, type ResolvedDecoderConfig } from './decoder-config.js';
import { ModelOptionError } from './errors.js';
import { Graph, concat, gradients, where, type Tensor } from './graph/index.js';
import { slice } from './graph/index.js';

/** Parameter names (Llama checkpoint keys) and shapes, in checkpoint order. Linear weights are [out, in]. */
/**
 * The parameter table a checkpoint's own model config implies, for `loadCheckpoint(dir, { shapes: checkpointShapes })`:
 * every tensor is checked against its shape, not only its size (a transposed matrix is refused).
 */
export const checkpointShapes = (model: Record<string, unknown>): Map<string, number[]> => parameterShapes(model as Partial<DecoderConfig> as DecoderConfig);

export function parameterShapes(config: DecoderConfig): Map<string, number[]> {
  const c = validateDecoderConfig(config);
  const kv = c.headDim * c.kvHeads, qd = c.headDim * c.heads;
  const m = new Map<string, number[]>([['tok_embeddings.weight', [c.vocab, c.width]]]);
  for (let i = 0; i < c.layers; i++) {
    const l = `layers.${i}`;
    m.set(`${l}.attention_norm.weight`, [c.width]);
    m.set(`${l}.attention.wq.weight`, [qd, c.width]);
    m.set(`${l}.attention.wk.weight`, [kv, c.width]);
    m.set(`${l}.attention.wv.weight`, [kv, c.width]);
    if (c.qkvBias) m.set(`${l}.attention.wq.bias`, [qd]).set(`${l}.attention.wk.bias`, [kv]).set(`${l}.attention.wv.bias`, [kv]);
    if (c.qkNorm) m.set(`${l}.attention.q_norm.weight`, [c.headDim]).set(`${l}.attention.k_norm.weight`, [c.headDim]);
    m.set(`${l}.attention.wo.weight`, [c.width, qd]);
    m.set(`${l}.ffn_norm.weight`, [c.width]);
    m.set(`${l}.feed_forward.w1.weight`, [c.ffnHidden, c.width]);
    m.set(`${l}.feed_forward.w2.weight`, [c.width, c.ffnHidden]);
    m.set(`${l}.feed_forward.w3.weight`, [c.ffnHidden, c.width]);
  }
  m.set('norm.weight', [c.width]);
  if (!c.tiedEmbeddings) m.set('output.weight', [c.vocab, c.width]);
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
    else if (name.endsWith('.bias')) a.fill(0);
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

/** Per-graph plumbing: rotary positions, and how queries meet keys (with or without a cache). */
interface Ctx {
  c: ResolvedDecoderConfig;
  /** Rotates query or key heads (B, T, heads, D/2, 2) by the tokens' positions. */
  rope: (x: Tensor, role: 'q' | 'k') => Tensor;
  /** q (B, T, K, G, D), k and v (B, T, K, D), time-major as projected -> attention output (B, T, C). */
  attend: (layer: number, q: Tensor, k: Tensor, v: Tensor) => Tensor;
  /**
   * Square as Pow(x, 2): onnxruntime then fuses the norm into one SimplifiedLayerNormalization node. Only for
   * graphs without a backward pass (the gradient needs the unfused intermediates); the training graph keeps Mul.
   */
  fusedNorm?: boolean;
}

function rmsnorm(x: Tensor, w: Tensor, ctx: Ctx): Tensor {
  const sq = ctx.fusedNorm ? x.pow(2) : x.mul(x); // (B, T, C)
  const rms = sq.mean([-1], true).add(ctx.c.normEps).sqrt(); // (B, T, 1)
  return x.div(rms).mul(w); // (B, T, C)
}

/** x·wᵀ (+ b when the checkpoint has that bias). */
function linear(x: Tensor, p: Params, name: string): Tensor {
  const y = x.matmul(p.get(`${name}.weight`)!.mT());
  const b = p.get(`${name}.bias`);
  return b === undefined ? y : y.add(b);
}

/** Rotates interleaved pairs (Meta Llama layout) of x: (B, T, heads, D/2, 2); cos and sin are (…, T, 1, D/2, 1). */
function rope(x: Tensor, cos: Tensor, sin: Tensor): Tensor {
  const x0 = x.slice(-1, 0, 1); // (B, T, heads, D/2, 1)
  const x1 = x.slice(-1, 1, 2); // (B, T, heads, D/2, 1)
  const r0 = x0.mul(cos).sub(x1.mul(sin)); // (B, T, heads, D/2, 1)
  const r1 = x0.mul(sin).add(x1.mul(cos)); // (B, T, heads, D/2, 1)
  return concat([r0, r1], -1); // (B, T, heads, D/2, 2)
}

/**
 * The same rotation in four nodes instead of nine, for graphs without a backward pass: x·cos2 + swap(x)·sin2 with
 * cos2 = (cos, cos) and sin2 = (-sin, sin) per pair, and swap a reversing Slice of the pair axis. Each output is
 * the same two products summed as in `rope` (a - b is a + -b), so the results are bit-identical.
 */
function ropePairs(x: Tensor, cos2: Tensor, sin2: Tensor): Tensor {
  const g = x.graph;
  const i64 = (v: bigint): Tensor => g.constant(BigInt64Array.of(v), 'int64', [1]);
  const [swapped] = g.node('Slice', [x, i64(1n), i64(-(2n ** 63n)), i64(-1n), i64(-1n)], { outputs: [{ dtype: x.dtype, shape: x.shape }] }); // (B, T, heads, D/2, 2)
  return x.mul(cos2).add(swapped!.mul(sin2)); // (B, T, heads, D/2, 2)
}

function attention(x: Tensor, p: Params, i: number, ctx: Ctx): Tensor {
  const { heads: H, kvHeads: K, headDim: D } = ctx.c;
  const G = H / K, a = `layers.${i}.attention`;
  const [B, T] = x.shape as [string, string];
  let q = linear(x, p, `${a}.wq`); // (B, T, H*D)
  let k = linear(x, p, `${a}.wk`); // (B, T, K*D)
  const v = linear(x, p, `${a}.wv`); // (B, T, K*D)
  if (ctx.c.qkNorm) {
    q = rmsnorm(q.reshape([B, T, H, D]), p.get(`${a}.q_norm.weight`)!, ctx); // (B, T, H, D)
    k = rmsnorm(k.reshape([B, T, K, D]), p.get(`${a}.k_norm.weight`)!, ctx); // (B, T, K, D)
  }
  const qr = ctx.rope(q.reshape([B, T, H, D / 2, 2]), 'q').reshape([B, T, K, G, D]); // (B, T, K, G, D)
  const kr = ctx.rope(k.reshape([B, T, K, D / 2, 2]), 'k').reshape([B, T, K, D]); // (B, T, K, D)
  const vr = v.reshape([B, T, K, D]); // (B, T, K, D)
  return ctx.attend(i, qr, kr, vr).matmul(p.get(`${a}.wo.weight`)!.mT()); // (B, T, C)
}

/** Head-major layouts for batched attention products: q (B, K, G, T, D), k and v (B, K, T, D). */
function headMajor(q: Tensor, k: Tensor, v: Tensor): [Tensor, Tensor, Tensor] {
  return [q.transpose([0, 2, 3, 1, 4]), k.transpose([0, 2, 1, 3]), v.transpose([0, 2, 1, 3])];
}

/** Attention output (B, K, G, T, D) back to (B, T, H*D). */
function timeMajor(y: Tensor, c: ResolvedDecoderConfig): Tensor {
  const [B, , , T] = y.shape as [string, number, number, string];
  return y.transpose([0, 3, 1, 2, 4]).reshape([B, T, c.heads * c.headDim]);
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
    x = x.add(attention(rmsnorm(x, p.get(`layers.${i}.attention_norm.weight`)!, ctx), p, i, ctx)); // (B, T, C)
    x = x.add(feedForward(rmsnorm(x, p.get(`layers.${i}.ffn_norm.weight`)!, ctx), p, i)); // (B, T, C)
  }
  return rmsnorm(x, p.get('norm.weight')!, ctx); // (B, T, C)
}

/** Output head, tied or not: (…, C) -> log-probabilities (…, V); `invTemp` (broadcast to the logits) divides them by a temperature first. */
const head = (x: Tensor, p: Params, invTemp?: Tensor): Tensor => {
  const logits = x.matmul((p.get('output.weight') ?? p.get('tok_embeddings.weight')!).mT());
  return (invTemp ? logits.mul(invTemp) : logits).logSoftmax(-1);
};

/** cos and sin of every position's rotary angles, (ctx, D/2) each, in float64. */
function ropeAngles(c: ResolvedDecoderConfig): { cos: Float64Array; sin: Float64Array; half: number } {
  const half = c.headDim / 2;
  const div = ropeDivisors(c);
  const cos = new Float64Array(c.contextLength * half), sin = new Float64Array(c.contextLength * half);
  for (let t = 0; t < c.contextLength; t++) {
    for (let j = 0; j < half; j++) {
      const a = t / div[j]!;
      cos[t * half + j] = Math.cos(a);
      sin[t * half + j] = Math.sin(a);
    }
  }
  return { cos, sin, half };
}

/**
 * Pair j turns by t / divisor[j] at position t: theta^(2j/D), scaled as `ropeScaling` says (the formulas of
 * Hugging Face's rope utilities).
 */
function ropeDivisors(c: ResolvedDecoderConfig): Float64Array {
  const r = c.ropeScaling;
  const d = Float64Array.from({ length: c.headDim / 2 }, (_, j) => Math.pow(c.ropeTheta, (2 * j) / c.headDim));
  if (r?.type === 'linear') return d.map((x) => x * r.factor);
  if (r?.type === 'llama3') {
    const lowWave = r.originalContextLength / r.lowFreqFactor, highWave = r.originalContextLength / r.highFreqFactor;
    return d.map((x) => {
      const wave = 2 * Math.PI * x;
      if (wave < highWave) return x;
      if (wave > lowWave) return x * r.factor;
      const smooth = (r.originalContextLength / wave - r.lowFreqFactor) / (r.highFreqFactor - r.lowFreqFactor);
      return 1 / ((1 - smooth) / (x * r.factor) + smooth / x);
    });
  }
  return d;
}

const floatConstant = (g: Graph, a: Float64Array, shape: number[]): Tensor => g.constant(g.float === 'float64' ? a : Float32Array.from(a), g.float, shape);

function ropeTables(g: Graph, c: ResolvedDecoderConfig): [Tensor, Tensor] {
  const { cos, sin, half } = ropeAngles(c);
  return [floatConstant(g, cos, [c.contextLength, half]), floatConstant(g, sin, [c.contextLength, half])]; // (ctx, D/2) each
}

/** `ropePairs` tables (ctx, D/2, 2): (cos, cos) and (-sin, sin), times `scale` (rounded once, from float64). */
function ropePairTables(g: Graph, c: ResolvedDecoderConfig, scale: number): [Tensor, Tensor] {
  const { cos, sin, half } = ropeAngles(c);
  const cos2 = new Float64Array(cos.length * 2), sin2 = new Float64Array(sin.length * 2);
  for (let i = 0; i < cos.length; i++) {
    cos2[2 * i] = cos2[2 * i + 1] = cos[i]! * scale;
    sin2[2 * i] = -sin[i]! * scale;
    sin2[2 * i + 1] = sin[i]! * scale;
  }
  return [floatConstant(g, cos2, [c.contextLength, half, 2]), floatConstant(g, sin2, [c.contextLength, half, 2])];
}

function weightInputs(g: Graph, c: ResolvedDecoderConfig): Params {
  return new Map([...parameterShapes(c)].map(([n, s]) => [n, g.input(n, g.float, s)]));
}

function weightConstants(g: Graph, c: ResolvedDecoderConfig, weights: ReadonlyMap<string, Float32Array | Float64Array>): Params {
  const ArrayOf = g.float === 'float64' ? Float64Array : Float32Array;
  return new Map([...parameterShapes(c)].map(([n, s]) => {
    const w = weights.get(n);
    const size = s.reduce((a, b) => a * b, 1);
    if (!(w instanceof ArrayOf) || w.length !== size) throw new ModelOptionError(`weights.${n}`, `a ${ArrayOf.name} of ${size} values`, w ? `${w.constructor.name}(${w.length})` : 'missing');
    return [n, g.constant(w, g.float, s)];
  }));
}

// ------------------------------------------------------------------ the two graphs

export interface TrainingGraph {
  graph: Graph;
  /** Outputs: logp (B, T-1), loss (scalar, masked mean NLL), and `grad.<name>` per parameter. */
  outputs: Record<string, Tensor>;
}

/**
 * Inputs: tokens int64 (B, T); loss_mask and dlogp float (B, T-1); inv_temp float (B), 1/temperature of each row's
 * distribution (1 = the model's own; a learner scores sampled tokens at the temperature they were drawn at); one
 * input per parameter. The gradients are those of sum(loss_mask · dlogp · logp): the RL objective stays in
 * TypeScript and supplies dlogp.
 */
export function buildTrainingGraph(config: DecoderConfig, dtype: 'float32' | 'float64' = 'float32'): TrainingGraph {
  const c = validateDecoderConfig(config);
  const g = new Graph(dtype);
  const tokens = g.input('tokens', 'int64', ['B', 'T']);
  const mask = g.input('loss_mask', dtype, ['B', 'T-1']);
  const dlogp = g.input('dlogp', dtype, ['B', 'T-1']);
  const invTemp = g.input('inv_temp', dtype, ['B']);
  const p = weightInputs(g, c);
  const tLen = g.node('Gather', [tokens.shapeOf(), g.scalar(1, 'int64')], { attrs: { axis: 0 }, outputs: [{ dtype: 'int64', shape: [] }] })[0]!;
  const pos = g.node('Range', [g.scalar(0, 'int64'), tLen, g.scalar(1, 'int64')], { outputs: [{ dtype: 'int64', shape: ['T'] }] })[0]!; // (T)
  const causal = g.node('GreaterOrEqual', [pos.unsqueeze([1]), pos.unsqueeze([0])], { outputs: [{ dtype: 'bool', shape: ['T', 'T'] }] })[0]!; // (T, T)
  const [cosT, sinT] = ropeTables(g, c);
  const D = c.headDim;
  const bias = where(causal, 0, -1e9); // (T, T)
  const cos = cosT.gather(pos).reshape(['T', 1, D / 2, 1]); // (T, 1, D/2, 1)
  const sin = sinT.gather(pos).reshape(['T', 1, D / 2, 1]); // (T, 1, D/2, 1)
  const ctx: Ctx = {
    c,
    rope: (x) => rope(x, cos, sin),
    attend: (_, qt, kt, vt) => {
      const [q, k, v] = headMajor(qt, kt, vt); // (B, K, G, T, D), (B, K, T, D), (B, K, T, D)
      const att = q.matmul(k.unsqueeze([2]).mT()).mul(1 / Math.sqrt(D)).add(bias); // (B, K, G, T, T)
      return timeMajor(att.softmax(-1).matmul(v.unsqueeze([2])), c); // (B, T, C)
    },
  };
  const x = trunk(tokens, p, ctx).slice(1, 0, -1); // (B, T-1, C): the last position predicts nothing we score
  const targets = tokens.slice(1, 1, Infinity).unsqueeze([-1]); // (B, T-1, 1)
  const logp = head(x, p, invTemp.unsqueeze([1, 2])).gatherElements(targets, -1).squeeze([-1]); // (B, T-1)
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
  /**
   * Outputs: logp_last (B, V) for the last new position, probs_last (B, V) its distribution at each row's
   * temperature (softmax(logp_last · inv_temp)), and `new.<i>.k` / `new.<i>.v` (B, K, S, D), the new keys/values.
   */
  outputs: Record<string, Tensor>;
}

export interface SamplingGraphOptions {
  /**
   * Build the decode-step graph: S is fixed at 1, so attention needs no transposes, the new token's score and value
   * are elementwise products instead of batched one-element matmuls, and the cache part is cut off with a Slice.
   * Same inputs, outputs and results as the general graph with S = 1, in fewer onnxruntime nodes.
   */
  decode?: boolean;
  /**
   * Bake these weights in as initializers instead of taking them as inputs: onnxruntime then prepacks them, and a
   * step no longer marshals ~40 weight feeds. The graph is for this one weights version.
   */
  weights?: ReadonlyMap<string, Float32Array | Float64Array>;
}

/**
 * One graph for prefill (P = 0, S = prompt) and decode (S = 1), or with `decode` a graph for S = 1 alone. Inputs:
 * tokens and positions int64 (B, S), attn_bias float (B, S, P+S) (0 = attend, -1e9 = masked: causal order, padding
 * and unused cache slots are the caller's choice), inv_temp float (B), `past.<i>.k` / `past.<i>.v` (B, K, P, D) per
 * layer, and the parameters. The cache is read, never copied: attention is split into a past part and a new part,
 * and only the new keys/values come out, so a caller can keep the cache in preallocated buffers and append in place.
 */
export function buildSamplingGraph(config: DecoderConfig, dtype: 'float32' | 'float64' = 'float32', options: SamplingGraphOptions = {}): SamplingGraph {
  const c = validateDecoderConfig(config);
  const g = new Graph(dtype);
  const D = c.headDim, K = c.kvHeads, G = c.heads / c.kvHeads;
  const S = options.decode ? 1 : 'S';
  const tokens = g.input('tokens', 'int64', ['B', S]);
  const positions = g.input('positions', 'int64', ['B', S]);
  const biasIn = g.input('attn_bias', dtype, ['B', S, options.decode ? 'P+1' : 'P+S']);
  const p = options.weights ? weightConstants(g, c, options.weights) : weightInputs(g, c);
  // Queries carry attention's 1/sqrt(D) in their rotary tables, which saves a Mul over the scores.
  const tables = { q: ropePairTables(g, c, 1 / Math.sqrt(D)), k: ropePairTables(g, c, 1) };
  const atPositions = (t: Tensor): Tensor => t.gather(positions).reshape(['B', S, 1, D / 2, 2]); // (B, S, 1, D/2, 2)
  const rot = { q: tables.q.map(atPositions) as [Tensor, Tensor], k: tables.k.map(atPositions) as [Tensor, Tensor] };
  const outputs: Record<string, Tensor> = {};
  const past = (i: number): [Tensor, Tensor] => [g.input(`past.${i}.k`, dtype, ['B', K, 'P', D]), g.input(`past.${i}.v`, dtype, ['B', K, 'P', D])];
  const bias = biasIn.unsqueeze(options.decode ? [1] : [1, 2]); // decode (B, 1, 1, P+1); general (B, 1, 1, S, P+S)
  const attendAny = (i: number, qt: Tensor, kt: Tensor, vt: Tensor): Tensor => {
    const [q, k, v] = headMajor(qt, kt, vt); // (B, K, G, S, D), (B, K, S, D), (B, K, S, D)
    const [pk, pv] = past(i);
    outputs[`new.${i}.k`] = k;
    outputs[`new.${i}.v`] = v;
    const scores = concat([q.matmul(pk.unsqueeze([2]).mT()), q.matmul(k.unsqueeze([2]).mT())], -1); // (B, K, G, S, P+S)
    const probs = scores.add(bias).softmax(-1); // (B, K, G, S, P+S)
    const sizes = concat([pk.shapeOf().slice(0, 2, 3), k.shapeOf().slice(0, 2, 3)], 0); // (2): [P, S]
    const [toPast, toNew] = g.node('Split', [probs, sizes], {
      attrs: { axis: 4 },
      outputs: [{ dtype, shape: [...probs.shape.slice(0, 4), 'P'] }, { dtype, shape: [...probs.shape.slice(0, 4), 'S'] }],
    }) as [Tensor, Tensor];
    return timeMajor(toPast.matmul(pv.unsqueeze([2])).add(toNew.matmul(v.unsqueeze([2]))), c); // (B, S, C)
  };
  // S = 1: (B, 1, K, G, D) is (B, K, G, D) in memory, and the output's (B, K, G, D) is (B, 1, C).
  const attendOne = (i: number, qt: Tensor, kt: Tensor, vt: Tensor): Tensor => {
    const q = qt.reshape(['B', K, G, D]); // (B, K, G, D)
    const k = kt.reshape(['B', K, 1, D]); // (B, K, 1, D)
    const v = vt.reshape(['B', K, 1, D]); // (B, K, 1, D)
    const [pk, pv] = past(i);
    outputs[`new.${i}.k`] = k;
    outputs[`new.${i}.v`] = v;
    const scores = concat([q.matmul(pk.mT()), q.mul(k).sum([-1], true)], -1); // (B, K, G, P+1)
    const probs = scores.add(bias).softmax(-1); // (B, K, G, P+1)
    const toPast = slice(probs, -1, 0, -1, ['B', K, G, 'P']); // (B, K, G, P)
    const toNew = probs.slice(-1, -1, Infinity); // (B, K, G, 1)
    return toPast.matmul(pv).add(toNew.mul(v)).reshape(['B', 1, c.heads * D]); // (B, 1, H*D)
  };
  const ctx: Ctx = {
    c,
    rope: (x, role) => ropePairs(x, ...rot[role]),
    attend: options.decode ? attendOne : attendAny,
    fusedNorm: true,
  };
  const h = trunk(tokens, p, ctx); // (B, S, C)
  const last = options.decode ? h : h.slice(1, -1, Infinity); // (B, 1, C)
  outputs['logp_last'] = head(last, p).squeeze([1]); // (B, V)
  // Each row's distribution at its own temperature, for the sampler's draw: one vectorised Softmax instead of V exps in JS.
  outputs['probs_last'] = outputs['logp_last'].mul(g.input('inv_temp', dtype, ['B']).unsqueeze([1])).softmax(-1); // (B, V)
  return { graph: g, outputs };
}
