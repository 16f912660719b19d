// The autodiff walker: gradients only where needed, accumulation over fan-out, a named error for an op without a rule.
import t from 'tap';
import { Graph, GraphRunner, emit, gradients, isMissingVjpRuleError } from '../../../model/graph/index.js';

t.test('an op with no rule on the differentiated path throws MissingVjpRuleError naming it', async (t) => {
  const g = new Graph('float64');
  const x = g.input('x', 'float64', [3]);
  const y = g.node('Relu', [x], { outputs: [{ dtype: 'float64', shape: [3] }] })[0]!;
  const w = g.input('w', 'float64', [3]);
  t.throws(() => gradients([y], [w], [x]), { name: 'MissingVjpRuleError', op: 'Relu', code: 'GRAPH_NO_VJP' });
  try { gradients([y], [w], [x]); } catch (err) { t.ok(isMissingVjpRuleError(err)); }
});

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

t.test('fan-out accumulates and an unreachable wrt gets zeros', async (t) => {
  const g = new Graph('float64');
  const x = g.input('x', 'float64', [2]);
  const z = g.input('z', 'float64', [2]);
  const y = x.mul(x).add(x); // dy/dx = 2x + 1
  const [gx, gz] = gradients([y], [g.scalar(1)], [x, z]);
  const r = await GraphRunner.create(emit(g, { gx: gx!, gz: gz! }));
  const out = await r.run({ x: { data: Float64Array.of(1.5, -2), dims: [2] }, z: { data: Float64Array.of(1, 1), dims: [2] } });
  t.same([...(out['gx']!.data as Float64Array)], [4, -3]);
  t.same([...(out['gz']!.data as Float64Array)], [0, 0]);
  await r.release();
});
