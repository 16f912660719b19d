// Packed token arrays decode to exactly what was packed, also when the bytes arrive as a pooled Buffer.
import t from 'tap';
import { packFloats, packInts, unpackFloats, unpackInts } from '../../actors/packed.js';
import { pack, unpack } from '../../runtime/codec.js';

t.test('round trip through msgpack', async (t) => {
  const ids = [1, 2, 3];
  const lp = [-0.5, -1.25];
  const decoded = unpack(pack({ ids: packInts(ids), lp: packFloats(lp) })) as { ids: Uint8Array; lp: Uint8Array };
  t.same([...unpackInts(decoded.ids)], ids);
  t.same([...unpackFloats(decoded.lp)], lp);
});

t.test('a Buffer view into a larger pool', async (t) => {
  const pool = Buffer.alloc(8192, 7);
  const view = pool.subarray(100, 112);
  view.set(packInts([5, 6, 7]));
  t.same([...unpackInts(view)], [5, 6, 7], 'exactly the view, not the pool');
  t.throws(() => unpackInts(pool.subarray(0, 5)), RangeError);
});
