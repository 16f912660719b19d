// Shape checks happen when the graph is built, and the error names the op and the input shapes.
import t from 'tap';
import { Graph, concat, isShapeError } from '../../../model/graph/index.js';

t.test('broadcast mismatch names Add and both shapes', async (t) => {
  const g = new Graph();
  const a = g.input('a', 'float32', ['B', 3]);
  const b = g.input('b', 'float32', [4]);
  t.throws(() => a.add(b), { name: 'ShapeError', op: 'Add', shapes: [['B', 3], [4]], message: /\[B,3\], \[4\]/ });
  try { a.add(b); } catch (err) { t.ok(isShapeError(err)); }
});

t.test('MatMul inner dims, Reshape counts, Concat dims, dtype mix', async (t) => {
  const g = new Graph();
  const x = g.input('x', 'float32', ['B', 'T', 8]);
  const w = g.input('w', 'float32', [6, 8]);
  t.throws(() => x.matmul(w), /MatMul: inner dims differ: 8 vs 6 \(input shapes \[B,T,8\], \[6,8\]\)/);
  t.throws(() => x.reshape(['B', 'T', 3, 3]), /Reshape: cannot reshape to \[B,T,3,3\]: 8 vs 9 elements/);
  t.throws(() => concat([x, w], 0), /Concat: inputs need the same dtype and rank/);
  const i = g.input('i', 'int64', ['B', 'T']);
  t.throws(() => x.add(i.unsqueeze([-1])), /Add: dtypes differ: float32 and int64/);
  t.throws(() => x.transpose([0, 1]), /Transpose: perm \[0,1\] is not a permutation of rank 3/);
});

t.test('symbolic dims flow through and are kept by Reshape', async (t) => {
  const g = new Graph();
  const x = g.input('x', 'float32', ['B', 'T', 8]);
  const y = x.reshape(['B', 'T', 2, 4]).transpose([0, 2, 1, 3]);
  t.same(y.shape, ['B', 2, 'T', 4]);
  t.same(x.slice(1, 0, -1).shape, ['B', 'T-1', 8]);
  t.same(concat([x, x], 1).shape, ['B', 'T+T', 8]);
});
