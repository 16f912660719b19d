// The autodiff walker accumulates gradients over fan-out, and a wrt the output does not reach gets zeros.
import t from 'tap';
import { Graph, GraphRunner, emit, gradients } from '../../../model/graph/index.js';

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
