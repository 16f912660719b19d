// Shape checks happen when the graph is built: a broadcast mismatch throws ShapeError naming Add and both shapes.
import t from 'tap';
import { Graph, isShapeError } from '../../../model/graph/index.js';

t.test('broadcast mismatch names Add and both shapes', async (t) => {
  const g = new Graph();
  const a = g.input('a', 'float32', ['B', 3]);
  const b = g.input('b', 'float32', [4]);
  t.throws(() => a.add(b), { name: 'ShapeError', op: 'Add', shapes: [['B', 3], [4]], message: /\[B,3\], \[4\]/ });
  try { a.add(b); } catch (err) { t.ok(isShapeError(err)); }
});
