// B1 ceiling: the decode step's weight products alone (each weight matrix times one row, baked like the step's),
// against the whole baked decode step, alternating rounds in one process, one intra-op thread.
import ort from 'onnxruntime-node';
import os from 'os';
import { loadCheckpoint } from '../../../dist/model/checkpoint.js';
import { buildSamplingGraph } from '../../../dist/model/decoder.js';
import { validateDecoderConfig } from '../../../dist/model/decoder-config.js';
import { emit, Graph } from '../../../dist/model/graph/index.js';
const ck = await loadCheckpoint(new URL('../../../model/checkpoints/base', import.meta.url).pathname, { optimizer: false });
const c = validateDecoderConfig(ck.config.model);
const B = +(process.argv[2] ?? 1), CAP = 64, USED = 48, rounds = +(process.argv[3] ?? 21);
const o = { intraOpNumThreads: 1, graphOptimizationLevel: 'all', extra: { session: { intra_op: { allow_spinning: '0' } } } };
const d = buildSamplingGraph(c, 'float32', { decode: true, weights: ck.params });
const step = await ort.InferenceSession.create(emit(d.graph, d.outputs, 'step').bytes, o);
// weights-only graph
const g = new Graph('float32');
const xs = new Map();
const outs = {};
let bytes = 0;
for (const [name, w] of ck.params) {
  const shape = name === 'tok_embeddings.weight' ? [c.vocab, c.width] : null;
  const dims = shape ?? (w.length === c.width ? null : [w.length / (name.includes('w2') ? c.ffnHidden : c.width), name.includes('w2') ? c.ffnHidden : c.width]);
  if (!dims) continue; // norms
  const inDim = dims[1];
  if (!xs.has(inDim)) xs.set(inDim, g.input(`x${inDim}`, 'float32', [B, inDim]));
  outs[`o_${name}`] = xs.get(inDim).matmul(g.constant(w, 'float32', dims).mT());
  bytes += w.length * 4;
}
const gemv = await ort.InferenceSession.create(emit(g, outs, 'gemv').bytes, o);
const T = (t, a, dd) => new ort.Tensor(t, a, dd);
const rnd = (n) => Float32Array.from({ length: n }, () => Math.random() - 0.5);
const sf = { tokens: T('int64', BigInt64Array.from({ length: B }, (_, i) => BigInt(5 + i)), [B, 1]), positions: T('int64', BigInt64Array.from({ length: B }, () => BigInt(USED)), [B, 1]), inv_temp: T('float32', new Float32Array(B).fill(1), [B]), attn_bias: T('float32', new Float32Array(B * (CAP + 1)), [B, 1, CAP + 1]) };
for (let i = 0; i < c.layers; i++) { sf[`past.${i}.k`] = T('float32', rnd(B * c.kvHeads * CAP * c.headDim), [B, c.kvHeads, CAP, c.headDim]); sf[`past.${i}.v`] = T('float32', rnd(B * c.kvHeads * CAP * c.headDim), [B, c.kvHeads, CAP, c.headDim]); }
const gf = {}; for (const [n] of xs) gf[`x${n}`] = T('float32', rnd(B * n), [B, n]);
const time = async (s, f, n) => { const t0 = performance.now(); for (let i = 0; i < n; i++) await s.run(f); return (performance.now() - t0) / n; };
await time(step, sf, 50); await time(gemv, gf, 50);
const a = [], b = [];
for (let r = 0; r < rounds; r++) { a.push(await time(step, sf, 100)); b.push(await time(gemv, gf, 100)); }
const med = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
console.log(`B=${B}: decode step ${(med(a) * 1000).toFixed(0)} us; its weight products alone ${(med(b) * 1000).toFixed(0)} us (${(bytes / 1e6).toFixed(1)} MB of weights, ${(bytes / med(b) / 1e6).toFixed(1)} GB/s); products / step ${(med(b.map((x, i) => x / a[i])) * 100).toFixed(0)}% (median of ${rounds} rounds); load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
