// Each way a safetensors file can be corrupt (header not JSON, holes, overlaps, sizes, dtypes, trailing bytes)
// fails with CorruptFileError naming the file.
import t from 'tap';
import { CorruptFileError } from '../../../model/errors.js';
import { decodeSafetensors, encodeSafetensors } from '../../../model/safetensors.js';
import { caught } from '../tokenizer/helpers.js';

t.test('corrupt files', async (t) => {
  const good = encodeSafetensors([['a', { shape: [2], data: Float32Array.of(1, 2) }], ['b', { shape: [1], data: Float32Array.of(3) }]]);
  const withHeader = (h: string, data: Uint8Array): Uint8Array => {
    const hb = Buffer.from(h);
    const out = new Uint8Array(8 + hb.length + data.length);
    new DataView(out.buffer).setBigUint64(0, BigInt(hb.length), true);
    out.set(hb, 8);
    out.set(data, 8 + hb.length);
    return out;
  };
  const data = new Uint8Array(12);
  const cases: Array<[string, Uint8Array, RegExp]> = [
    ['header not JSON', withHeader('{"a": ', data), /not JSON/],
    ['hole between tensors', withHeader('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}}', data), /hole or overlap/],
    ['overlap', withHeader('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', data), /hole or overlap/],
    ['size vs shape', withHeader('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,12]}}', data), /12 bytes for shape \[2\]/],
    ['unknown dtype', withHeader('{"a":{"dtype":"Q4","shape":[3],"data_offsets":[0,12]}}', data), /unknown dtype/],
    ['trailing bytes', withHeader('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}', data), /4 bytes after the last tensor/],
    ['huge header length', Uint8Array.from([255, 255, 255, 255, 255, 255, 255, 255, 0]), /header length/],
  ];
  for (const [what, bytes, message] of cases) {
    const e = caught(() => decodeSafetensors(bytes, 'x.safetensors'));
    t.ok(e instanceof CorruptFileError && message.test(String(e)) && String(e).includes('x.safetensors'), `${what}: ${String(e)}`);
  }
  t.equal(decodeSafetensors(good).tensors.size, 2);
});
