// Packed token ids and log-probs decode to exactly what was packed after a round trip through msgpack.
import t from 'tap';
import { packFloats, packInts, unpackFloats, unpackInts } from '../../../actors/loop/packed.js';
import { pack, unpack } from '../../../runtime/codec.js';

t.test('round trip through msgpack', async (t) => {
  const ids = [1, 2, 3];
  const lp = [-0.5, -1.25];
  const decoded = unpack(pack({ ids: packInts(ids), lp: packFloats(lp) })) as { ids: Uint8Array; lp: Uint8Array };
  t.same([...unpackInts(decoded.ids)], ids);
  t.same([...unpackFloats(decoded.lp)], lp);
});
