// Symbolic dims flow through Reshape, Transpose, Slice and Concat and are kept in the result shapes.
import t from 'tap';
import { Graph, concat } from '../../../model/graph/index.js';

t.test('symbolic dims flow through and are kept by Reshape', async (t) => {
  const g = new Graph();
  const x = g.input('x', 'float32', ['B', 'T', 8]);
  const y = x.reshape(['B', 'T', 2, 4]).transpose([0, 2, 1, 3]);
  t.same(y.shape, ['B', 2, 'T', 4]);
  t.same(x.slice(1, 0, -1).shape, ['B', 'T-1', 8]);
  t.same(concat([x, x], 1).shape, ['B', 'T+T', 8]);
});
