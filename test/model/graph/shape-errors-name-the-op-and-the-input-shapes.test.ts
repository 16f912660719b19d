// MatMul inner dims, Reshape element counts, Concat ranks, mixed dtypes and bad Transpose perms fail when the
// graph is built, naming the op and the input shapes.
import t from 'tap';
import { Graph, concat } from '../../../model/graph/index.js';

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
