// Packed ints that arrive as a view into a larger pooled Buffer decode to exactly the view, not the pool; a length
// that is not a whole number of ints is a RangeError.
import t from 'tap';
import { packInts, unpackInts } from '../../../actors/loop/packed.js';

t.test('a Buffer view into a larger pool', async (t) => {
  const pool = Buffer.alloc(8192, 7);
  const view = pool.subarray(100, 112);
  view.set(packInts([5, 6, 7]));
  t.same([...unpackInts(view)], [5, 6, 7], 'exactly the view, not the pool');
  t.throws(() => unpackInts(pool.subarray(0, 5)), RangeError);
});
