// The autodiff walker accepts an op without a rule off the differentiated path and emits no unused gradient branches.
import t from 'tap';
import { Graph, emit, gradients } from '../../../model/graph/index.js';

t.test('an op without a rule off the path is fine, and unused gradient branches are not emitted', async (t) => {
  const g = new Graph('float64');
  const x = g.input('x', 'float64', [2, 3]);
  const c = g.input('c', 'float64', [3, 4]);
  const blocked = g.node('Relu', [c], { outputs: [{ dtype: 'float64', shape: [3, 4] }] })[0]!;
  const y = x.matmul(blocked); // (2, 4)
  const w = g.input('w', 'float64', [2, 4]);
  const [gx] = gradients([y], [w], [x]);
  const compiled = emit(g, { gx: gx! });
  // dX = w · relu(c)^T: Relu, Transpose, MatMul only; nothing for dC.
  t.equal(compiled.nodeCount, 3);
  t.same(compiled.inputs.map((i) => i.name).sort(), ['c', 'w']);
});
