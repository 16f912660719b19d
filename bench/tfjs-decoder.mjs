// The benchmark's baseline: model/decoder.ts's Llama-style decoder (RMSNorm, interleaved RoPE, SwiGLU, causal
// attention with grouped KV heads, tied embeddings) written with @tensorflow/tfjs, loaded only by bench:model.
// Plain JavaScript so the product's build never resolves tfjs (bench/node_modules is installed by the bench alone).
// Legend: B batch, T time, N = B·T rows, C channels, H heads, K kv heads, G = H/K, D head size, F ffn width, V vocab, P cached.
import * as tf from '@tensorflow/tfjs';

// The union package: it registers the gradients and chained methods that tfjs-core alone lacks.
const { add, sub, mul, div, sqrt, square, mean, reshape, transpose, slice } = tf;

/** (rows, C) -> (rows, C); the same formula as the engine (divide by the root mean square). */
const rmsnorm = (x, w, eps) => mul(div(x, sqrt(add(mean(square(x), -1, true), eps))), w);
/**
 * 2-D product a·b whose gradients are 2-D products too. tfjs's WASM MatMul runs XNNPACK only for untransposed 2-D
 * operands and a naive scalar loop otherwise (transposed or batched), and tfjs's own MatMul gradient asks for
 * transposed operands; explicit transposes (cheap copies) keep every product of the step on the fast path.
 */
const mm = tf.customGrad((a, b, save) => {
  save([a, b]);
  return { value: tf.matMul(a, b), gradFunc: (dy, [sa, sb]) => [tf.matMul(dy, transpose(sb)), tf.matMul(transpose(sa), dy)] };
});
/**
 * Batched product (n, M, K)·(n, K, N) (b transposed: (n, N, K)). On WASM, slices big enough to repay the per-op cost
 * run as 2-D products on XNNPACK rather than in the scalar batched kernel.
 */
function bmm(a, b, transposeB = false) {
  const [, M, K] = a.shape, N = b.shape[transposeB ? 1 : 2];
  if (tf.getBackend() !== 'wasm' || M * K * N < 1 << 15) return tf.matMul(a, b, false, transposeB);
  const bs = tf.unstack(b);
  return tf.stack(tf.unstack(a).map((ai, i) => mm(ai, transposeB ? transpose(bs[i]) : bs[i]))); // (n, M, N)
}

/** Interleaved (Meta Llama) rotation of x (N, heads, D/2, 2) with cos/sin (N, 1, D/2, 1). */
function rope(x, cos, sin) {
  const [n, h, half] = x.shape;
  const x0 = slice(x, [0, 0, 0, 0], [n, h, half, 1]); // (N, heads, D/2, 1)
  const x1 = slice(x, [0, 0, 0, 1], [n, h, half, 1]); // (N, heads, D/2, 1)
  return tf.concat([sub(mul(x0, cos), mul(x1, sin)), add(mul(x0, sin), mul(x1, cos))], 3); // (N, heads, D/2, 2)
}

/** The embedding lookup with a scatter-add gradient: tfjs's own Gather gradient needs UnsortedSegmentSum, which the WASM backend lacks. */
const embed = tf.customGrad((table, ids, save) => {
  save([ids]);
  return {
    value: tf.gather(table, ids), // (N, C)
    gradFunc: (dy, [saved]) => [tf.scatterND(tf.expandDims(saved, 1), dy, table.shape), tf.zerosLike(saved)],
  };
});

export class TfjsDecoder {
  /** config: model/decoder.ts's resolved config; params: [name, shape, Float32Array] in checkpoint order. */
  constructor(config, params) {
    this.c = config;
    this.D = config.width / config.heads;
    this.p = new Map(params.map(([name, shape, data]) => [name, tf.tidy(() => tf.variable(tf.tensor(data, shape, 'float32'), true, name))]));
    const half = this.D / 2;
    const cos = new Float32Array(config.contextLength * half), sin = new Float32Array(config.contextLength * half);
    for (let t = 0; t < config.contextLength; t++) {
      for (let j = 0; j < half; j++) {
        const a = t / Math.pow(config.ropeTheta, (2 * j) / (2 * half)); // float64 angles, rounded once, as the engine does
        cos[t * half + j] = Math.cos(a);
        sin[t * half + j] = Math.sin(a);
      }
    }
    this.cosTable = tf.tensor2d(cos, [config.contextLength, half]); // (ctx, D/2)
    this.sinTable = tf.tensor2d(sin, [config.contextLength, half]); // (ctx, D/2)
  }

  w(name) { return this.p.get(name); }

  /**
   * Linear layer with a Llama [out, in] weight: (rows, in) -> (rows, out). Sampling reads weights transposed once
   * (XNNPACK packs each new right-hand operand, which costs as much as a batch-1 product); the weights are fixed
   * in the bench, and a training loop would refresh them after each update as it swaps weight versions.
   */
  linear(x, name) {
    if (!this.sampling) return mm(x, transpose(this.w(name)));
    this.frozen ??= new Map([...this.p].filter(([, v]) => v.shape.length === 2).map(([n, v]) => [n, tf.keep(transpose(v))]));
    return tf.matMul(x, this.frozen.get(name)); // no gradient needed: skip the custom-gradient wrapper
  }

  /** Rotary tables at the rows' positions (N int32) -> (N, 1, D/2, 1) each. */
  rotary(positions) {
    const shape = [positions.shape[0], 1, this.D / 2, 1];
    return [reshape(tf.gather(this.cosTable, positions), shape), reshape(tf.gather(this.sinTable, positions), shape)];
  }

  feedForward(x, i) {
    const w = (n) => `layers.${i}.feed_forward.${n}.weight`;
    const a = this.linear(x, w('w1')); // (N, F)
    return this.linear(mul(mul(a, tf.sigmoid(a)), this.linear(x, w('w3'))), w('w2')); // (N, C): (SiLU(x·w1) * x·w3)·w2
  }

  /** Queries (N, H, D) and keys (N, K, D) after rotation, values (N, K, D), for one layer's normed input (N, C). */
  qkv(h, i, cos, sin) {
    const { heads: H, kvHeads: K } = this.c, D = this.D, n = h.shape[0];
    const w = (m) => `layers.${i}.attention.${m}.weight`;
    const q = reshape(rope(reshape(this.linear(h, w('wq')), [n, H, D / 2, 2]), cos, sin), [n, H, D]); // (N, H, D)
    const k = reshape(rope(reshape(this.linear(h, w('wk')), [n, K, D / 2, 2]), cos, sin), [n, K, D]); // (N, K, D)
    return [q, k, reshape(this.linear(h, w('wv')), [n, K, D])]; // v: (N, K, D)
  }

  /** Causal self-attention over whole sequences; also returns this layer's keys and values (B·K, T, D) for a cache. */
  attendFull(h, i, B, T, cos, sin, bias) {
    const { heads: H, kvHeads: K, width: C } = this.c, D = this.D, G = H / K;
    const [q, k, v] = this.qkv(h, i, cos, sin);
    const heads = (t, n) => reshape(transpose(reshape(t, [B, T, n, D]), [0, 2, 1, 3]), [B * K, (n / K) * T, D]);
    const qh = heads(q, H); // (B·K, G·T, D): head = k·G + g
    const kh = heads(k, K); // (B·K, T, D)
    const vh = heads(v, K); // (B·K, T, D)
    const att = add(reshape(mul(bmm(qh, kh, true), 1 / Math.sqrt(D)), [B * K, G, T, T]), bias); // (B·K, G, T, T)
    const y = bmm(reshape(tf.softmax(att, -1), [B * K, G * T, T]), vh); // (B·K, G·T, D)
    const out = this.linear(reshape(transpose(reshape(y, [B, H, T, D]), [0, 2, 1, 3]), [B * T, C]), `layers.${i}.attention.wo.weight`); // (N, C)
    return [out, kh, vh];
  }

  /** Embeddings through every block and the final norm: ids (N int32) -> (N, C), plus per-layer keys/values. */
  trunk(ids, B, T, positions) {
    const { layers, normEps: eps } = this.c;
    const [cos, sin] = this.rotary(positions);
    const r = tf.range(0, T, 1, 'int32');
    const bias = tf.where(tf.greaterEqual(tf.expandDims(r, 1), tf.expandDims(r, 0)), tf.zeros([T, T]), tf.fill([T, T], -1e9)); // (T, T)
    let x = embed(this.w('tok_embeddings.weight'), ids); // (N, C)
    const ks = [], vs = [];
    for (let i = 0; i < layers; i++) {
      const [a, k, v] = this.attendFull(rmsnorm(x, this.w(`layers.${i}.attention_norm.weight`), eps), i, B, T, cos, sin, bias);
      x = add(x, a); // (N, C)
      x = add(x, this.feedForward(rmsnorm(x, this.w(`layers.${i}.ffn_norm.weight`), eps), i)); // (N, C)
      ks.push(k);
      vs.push(v);
    }
    return [rmsnorm(x, this.w('norm.weight'), eps), ks, vs];
  }

  /** Tied output head: (rows, C) -> log-probabilities (rows, V). */
  head(x) { return tf.logSoftmax(this.linear(x, 'tok_embeddings.weight'), -1); }

  /** log p(token t+1 | tokens 0..t) for tokens (B, T) int32 -> (B·(T-1)) tensor, as the engine's training graph. */
  logpOf(tokens, B, T) {
    const ids = tf.tensor1d(tokens, 'int32'); // (N)
    const positions = tf.tensor1d(Int32Array.from({ length: B * T }, (_, i) => i % T), 'int32'); // (N)
    const [x] = this.trunk(ids, B, T, positions);
    const C = this.c.width;
    const xs = reshape(slice(reshape(x, [B, T, C]), [0, 0, 0], [B, T - 1, C]), [B * (T - 1), C]); // (B·(T-1), C)
    const targets = reshape(slice(reshape(ids, [B, T]), [0, 1], [B, T - 1]), [B * (T - 1)]); // (B·(T-1))
    return tf.sum(mul(this.head(xs), tf.oneHot(targets, this.c.vocab)), -1); // (B·(T-1)): the target's log-prob
  }

  async logp(tokens, B, T) {
    const t = tf.tidy(() => this.logpOf(tokens, B, T));
    const out = await t.data();
    t.dispose();
    return out;
  }

  /** One training step: log-probs and the gradients of sum(mask · dlogp · logp) for every parameter, read back to JS. */
  async trainStep(tokens, B, T, mask, dlogp) {
    const upstream = tf.tidy(() => mul(tf.tensor1d(mask), tf.tensor1d(dlogp))); // (B·(T-1))
    let logpT = null;
    const { value, grads } = tf.variableGrads(() => {
      const lp = this.logpOf(tokens, B, T);
      logpT = tf.keep(lp);
      return tf.sum(mul(lp, upstream));
    }, [...this.p.values()]);
    const names = Object.keys(grads);
    const arrays = await Promise.all(names.map((n) => grads[n].data()));
    const logp = await logpT.data();
    tf.dispose([value, upstream, logpT, ...Object.values(grads)]);
    return { logp, grads: new Map(names.map((n, i) => [n, arrays[i]])) };
  }

  /** Runs fn in a tidy scope with the sampling weights (see linear). */
  sample(fn) {
    this.sampling = true;
    try {
      return tf.tidy(fn);
    } finally {
      this.sampling = false;
    }
  }

  /** Prompt pass: tokens (B, S) -> log-probs of the next token (B, V) and the cache, per layer (B·K, S, D). */
  prefill(tokens, B, S) {
    return this.sample(() => {
      const positions = tf.tensor1d(Int32Array.from({ length: B * S }, (_, i) => i % S), 'int32'); // (N)
      const [x, k, v] = this.trunk(tf.tensor1d(tokens, 'int32'), B, S, positions);
      const C = this.c.width;
      const last = reshape(slice(reshape(x, [B, S, C]), [0, S - 1, 0], [B, 1, C]), [B, C]); // (B, C)
      return { logp: this.head(last), k, v };
    });
  }

  /** One new token per row at position `pos` against the cache (B·K, P, D): -> (B, V) and the cache grown to P+1. */
  decode(tokens, pos, cache) {
    const { heads: H, kvHeads: K, width: C, layers, normEps: eps } = this.c, D = this.D, G = H / K, B = tokens.length;
    return this.sample(() => {
      const [cos, sin] = this.rotary(tf.fill([B], pos, 'int32'));
      let x = tf.gather(this.w('tok_embeddings.weight'), tf.tensor1d(tokens, 'int32')); // (B, C)
      const k = [], v = [];
      for (let i = 0; i < layers; i++) {
        const [q, kn, vn] = this.qkv(rmsnorm(x, this.w(`layers.${i}.attention_norm.weight`), eps), i, cos, sin); // (B, H, D), (B, K, D) x2
        const kc = tf.concat([cache.k[i], reshape(kn, [B * K, 1, D])], 1); // (B·K, P+1, D)
        const vc = tf.concat([cache.v[i], reshape(vn, [B * K, 1, D])], 1); // (B·K, P+1, D)
        const att = tf.softmax(mul(tf.matMul(reshape(q, [B * K, G, D]), kc, false, true), 1 / Math.sqrt(D)), -1); // (B·K, G, P+1)
        x = add(x, this.linear(reshape(tf.matMul(att, vc), [B, C]), `layers.${i}.attention.wo.weight`)); // (B, C)
        x = add(x, this.feedForward(rmsnorm(x, this.w(`layers.${i}.ffn_norm.weight`), eps), i)); // (B, C)
        k.push(kc);
        v.push(vc);
      }
      return { logp: this.head(rmsnorm(x, this.w('norm.weight'), eps)), k, v };
    });
  }

  /**
   * Generates `newTokens` tokens for B prompts of equal length with the KV cache; `pick(logpRow)` chooses each token
   * (the bench passes the engine's own token picker). Returns the tokens per row.
   */
  async generate(prompts, newTokens, pick) {
    const B = prompts.length, S = prompts[0].length, V = this.c.vocab;
    let step = this.prefill(Int32Array.from(prompts.flat()), B, S);
    const out = prompts.map(() => []);
    for (let n = 0; ; n++) {
      const logp = await step.logp.data();
      const next = out.map((row, b) => {
        const t = pick(logp.subarray(b * V, (b + 1) * V));
        row.push(t);
        return t;
      });
      if (n === newTokens - 1) break;
      const grown = this.decode(next, S + n, step);
      tf.dispose([step.logp, ...step.k, ...step.v]);
      step = grown;
    }
    tf.dispose([step.logp, ...step.k, ...step.v]);
    return out;
  }

  /**
   * The sampling path against the full forward: prefill `prefix` tokens, then feed the rest one at a time through the
   * cache; returns the largest |log p| difference for the fed tokens (B = 1).
   */
  async decodeParity(tokens, prefix) {
    const T = tokens.length;
    const full = await this.logp(Int32Array.from(tokens), 1, T); // (T-1)
    let step = this.prefill(Int32Array.from(tokens.slice(0, prefix)), 1, prefix);
    let worst = 0;
    for (let t = prefix; t < T; t++) {
      const lp = await step.logp.data(); // (1, V): predicts token t
      worst = Math.max(worst, Math.abs(lp[tokens[t]] - full[t - 1]));
      if (t === T - 1) break;
      const grown = this.decode([tokens[t]], t, step);
      tf.dispose([step.logp, ...step.k, ...step.v]);
      step = grown;
    }
    tf.dispose([step.logp, ...step.k, ...step.v]);
    return worst;
  }

  dispose() {
    tf.dispose([...this.p.values(), ...(this.frozen?.values() ?? []), this.cosTable, this.sinTable]);
  }
}
