// Our safetensors files have the reference layout (8-byte LE header length, space-padded JSON header,
// little-endian data), so other tools read our files and we read theirs.
import t from 'tap';
import { encodeSafetensors } from '../../../model/safetensors.js';

t.test('layout matches the reference format', async (t) => {
  const bytes = encodeSafetensors([['a', { shape: [2], data: Float32Array.of(1, 2) }]], { format: 'pt' });
  const header = '{"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}';
  const padded = header + ' '.repeat((8 - (header.length % 8)) % 8);
  t.equal(Number(new DataView(bytes.buffer).getBigUint64(0, true)), padded.length, '8-byte LE header length');
  t.equal(Buffer.from(bytes.subarray(8, 8 + padded.length)).toString(), padded, 'JSON header padded with spaces to 8 bytes');
  t.same([...new Float32Array(bytes.slice(8 + padded.length).buffer)], [1, 2], 'little-endian data');
});
