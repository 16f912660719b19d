// The whole training graph in float64: every parameter gradient against central differences of sum(mask·dlogp·logp).
import t from 'tap';
import ort from 'onnxruntime-node';
import { buildTrainingGraph, initParameters, parameterShapes } from '../../../model/decoder.js';
import { type DecoderConfig } from '../../../model/decoder-config.js';
import { GraphRunner, emit } from '../../../model/graph/index.js';
import { centralDifference } from '../graph/fd-check.js';

const config: DecoderConfig = { layers: 2, width: 8, heads: 2, kvHeads: 1, contextLength: 8, vocab: 7, ffnHidden: 12 };

t.test('every parameter gradient of the tiny decoder matches finite differences', async (t) => {
  const B = 2, T = 5;
  const { graph, outputs } = buildTrainingGraph(config, 'float64');
  const full = await GraphRunner.create(emit(graph, outputs), { intraOpNumThreads: 1, graphOptimizationLevel: 'basic' }); // extended fusions (QuickGelu) are float32-only
  const fwd = await GraphRunner.create(emit(graph, { logp: outputs['logp']! }), { intraOpNumThreads: 1, graphOptimizationLevel: 'basic' }); // extended fusions (QuickGelu) are float32-only
  const weights = new Map([...initParameters(config, 11)].map(([n, w]) => [n, Float64Array.from(w, (x) => (n.includes('norm') ? 1 + x : x * 20))]));
  const feeds: Record<string, ort.Tensor> = {
    tokens: new ort.Tensor('int64', BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 5 + 2) % config.vocab)), [B, T]),
    loss_mask: new ort.Tensor('float64', Float64Array.from({ length: B * (T - 1) }, (_, i) => (i === 2 ? 0 : 1)), [B, T - 1]),
    dlogp: new ort.Tensor('float64', Float64Array.from({ length: B * (T - 1) }, (_, i) => Math.sin(i + 1)), [B, T - 1]),
    inv_temp: new ort.Tensor('float64', Float64Array.of(1, 1 / 0.3), [B]), // the second row scored at temperature 0.3
  };
  const shapes = parameterShapes(config);
  for (const [n, w] of weights) feeds[n] = new ort.Tensor('float64', w, shapes.get(n)!);
  const mask = feeds['loss_mask']!.data as Float64Array, dlogp = feeds['dlogp']!.data as Float64Array;
  const objective = async (): Promise<number> => {
    const lp = (await fwd.run(feeds))['logp']!.data as Float64Array;
    return lp.reduce((s, v, i) => s + v * mask[i]! * dlogp[i]!, 0);
  };
  const analytic = await full.run(feeds);
  const eps = 1e-6;
  let worst = 0, worstName = '', checked = 0, maxGrad = 0;
  for (const [name, w] of weights) {
    const g = analytic[`grad.${name}`]!.data as Float64Array;
    t.equal(g.length, w.length, `${name} gradient size`);
    for (let i = 0; i < w.length; i++) {
      const err = Math.abs((await centralDifference(w, i, eps, objective)) - g[i]!);
      if (err > worst) { worst = err; worstName = name; }
      maxGrad = Math.max(maxGrad, Math.abs(g[i]!));
      checked++;
    }
  }
  console.log(`# whole-model FD: ${checked} parameters, max abs error ${worst.toExponential(2)} (${worstName}), max |grad| ${maxGrad.toFixed(3)}`);
  t.ok(maxGrad > 1e-3, 'gradients are not trivially small');
  t.ok(worst < 1e-6, `max abs error ${worst.toExponential(2)} < 1e-6`);
  await full.release();
  await fwd.release();
});
