import ort from 'onnxruntime-node';
import { buildTrainingGraph, initParameters, parameterShapes } from '../../model/index.js';
import { GraphRunner, emit, topoOrder, type Tensor } from '../../model/graph/index.js';
import { splitGraph } from '../../model/graph/split.js';
const config = { layers: 4, width: 256, heads: 8, kvHeads: 4, contextLength: 2560, vocab: 2048, ffnHidden: 704 };
const t = buildTrainingGraph(config, 'float32');
const g = t.graph;
const back: Record<string, Tensor> = {};
for (const [k, v] of Object.entries(t.outputs)) if (k.startsWith('grad.')) back[k] = v;
const s = splitGraph(g, { forward: { logp: t.outputs['logp']!, loss: t.outputs['loss']! }, backward: back, seeds: [g.inputs.find((i) => i.name === 'dlogp')!] });
// Recover the saved tensors: the backward's inputs named saved.* map to forward outputs of the same name; rebuild by re-running the split's logic is private, so compare runners by output subset at run time instead (fetch only some outputs).
const [B, T] = process.argv[2]!.split('x').map(Number) as [number, number];
const w = initParameters(config, 1); const shapes = parameterShapes(config);
const feeds: Record<string, ort.Tensor> = { tokens: new ort.Tensor('int64', BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 31 + 7) % 2048)), [B, T]), loss_mask: new ort.Tensor('float32', new Float32Array(B * (T - 1)).fill(1), [B, T - 1]), inv_temp: new ort.Tensor('float32', new Float32Array(B).fill(1), [B]) };
for (const [n, a] of w) feeds[n] = new ort.Tensor('float32', a, shapes.get(n)!);
const fr = await GraphRunner.create(s.forward, { intraOpNumThreads: 2 });
const sess = fr.session;
const el = async (f: () => Promise<unknown>) => { const t0 = performance.now(); await f(); return (performance.now() - t0).toFixed(0); };
const small = s.saved.filter((n) => true);
// fetch subsets: ORT still computes everything needed for the requested outputs only.
const all = sess.outputNames;
const big = (await sess.run(feeds)) as Record<string, ort.Tensor>;
const bigNames = all.filter((n) => n.startsWith('saved.') && (big[n]!.data as Float32Array).byteLength > 20e6);
const smallNames = all.filter((n) => !bigNames.includes(n));
console.log('big', bigNames.length, 'small', smallNames.length);
for (let i = 0; i < 0; i++) {
  console.log('logp only', await el(() => sess.run(feeds, ['logp', 'loss'])), 'small', await el(() => sess.run(feeds, smallNames)), 'all', await el(() => sess.run(feeds)), 'big+logp', await el(() => sess.run(feeds, ['logp', ...bigNames])));
}
const pre: Record<string, ort.Tensor> = {};
for (const n of all) { const o = big[n]!; pre[n] = new ort.Tensor(o.type as 'float32', (o.data as Float32Array).constructor === BigInt64Array ? new BigInt64Array(o.size) as never : new Float32Array(o.size) as never, o.dims); }
for (let i = 0; i < 3; i++) console.log('prealloc all', await el(() => sess.run(feeds, pre)), 'all', await el(() => sess.run(feeds)));
const r = await sess.run(feeds, pre);
console.log('same buffer', r['saved.3']!.data === pre['saved.3']!.data, 'pre written', (pre['saved.3']!.data as Float32Array).some((x) => x !== 0), 'same values', (pre['saved.3']!.data as Float32Array).every((x, i) => x === (r['saved.3']!.data as Float32Array)[i]));
for (let i = 0; i < 4; i++) console.log('prealloc all', await el(() => sess.run(feeds, pre)), 'all', await el(() => sess.run(feeds)), 'logp', await el(() => sess.run(feeds, ['logp'])));
