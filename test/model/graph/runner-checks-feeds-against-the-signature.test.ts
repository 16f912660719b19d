// The runner checks feeds against the compiled signature (names, dtypes, static dims) and accepts any size for
// named dims; outputs may alias inputs or each other.
import t from 'tap';
import { Graph, GraphRunner, emit } from '../../../model/graph/index.js';

t.test('feeds are checked by name, dtype and static dims; named dims take any size', async (t) => {
  const g = new Graph();
  const x = g.input('x', 'float32', ['B', 3]);
  const y = x.mul(2).sum([1]);
  const r = await GraphRunner.create(emit(g, { y, again: y, same: x }));
  for (const B of [1, 4]) {
    const out = await r.run({ x: { data: new Float32Array(B * 3).fill(1), dims: [B, 3] } });
    t.same([...(out['y']!.data as Float32Array)], Array(B).fill(6));
    t.same([...(out['again']!.data as Float32Array)], Array(B).fill(6));
    t.equal(out['same']!.dims.join(','), `${B},3`);
  }
  await t.rejects(r.run({}), { name: 'GraphRunError', message: 'missing feed x' });
  await t.rejects(r.run({ x: { data: new Float32Array(4), dims: [2, 2] } }), { message: 'feed x has shape [2,2], expected [B,3]' });
  await t.rejects(r.run({ x: { data: new Float64Array(3), dims: [1, 3] } }), { message: 'feed x holds a Float64Array, expected Float32Array' });
  await r.release();
});
