// splitGraph cuts only at graph inputs, and only where the forward half does not need the seed: a seed that is a
// computed tensor (or another graph's input), or a forward output that depends on a seed, is a GraphSplitError.
import t from 'tap';
import { Graph, gradients, isGraphSplitError, splitGraph } from '../../../model/graph/index.js';

t.test('split refuses a seed that is not an input, and a forward output that needs a seed', async (t) => {
  const g = new Graph('float64');
  const x = g.input('x', 'float64', [2, 3]);
  const w = g.input('w', 'float64', [3, 4]);
  const dy = g.input('dy', 'float64', [2, 4]);
  const y = x.matmul(w).tanh(); // (2, 4)
  const [gw] = gradients([y], [dy], [w]);
  const ok = splitGraph(g, { forward: { y }, backward: { gw: gw! }, seeds: [dy] });
  t.same(ok.forward.inputs.map((i) => i.name).sort(), ['w', 'x'], 'the forward half does not take the seed');
  t.ok(ok.backward.inputs.some((i) => i.name === 'dy'), 'the backward half does');

  const computed = x.mul(2);
  t.throws(() => splitGraph(g, { forward: { y }, backward: { gw: gw! }, seeds: [computed] }), { name: 'GraphSplitError', code: 'GRAPH_SPLIT', message: /seed mul_\d+_0 is not an input/ });
  const other = new Graph('float64').input('dy', 'float64', [2, 4]);
  t.throws(() => splitGraph(g, { forward: { y }, backward: { gw: gw! }, seeds: [other] }), { name: 'GraphSplitError', message: /seed dy is not an input of this graph/ });
  t.throws(() => splitGraph(g, { forward: { y, late: y.mul(dy) }, backward: { gw: gw! }, seeds: [dy] }), { name: 'GraphSplitError', message: /forward output late depends on a seed \(dy\)/ });
  try {
    splitGraph(g, { forward: { y }, backward: { gw: gw! }, seeds: [computed] });
  } catch (e) {
    t.ok(isGraphSplitError(e), 'isGraphSplitError recognises it');
  }
});
