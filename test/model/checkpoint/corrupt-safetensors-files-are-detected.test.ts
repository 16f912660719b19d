// Each way a safetensors file can be corrupt or lie about itself (header not JSON or not an object, a length field
// past the cap or past the file, unknown dtypes, shapes or offsets that are not what they claim, holes, overlaps,
// ranges outside the data, trailing bytes) fails with its typed error naming the file, before any tensor is read.
import t from 'tap';
import { CorruptFileError, OversizeHeaderError, TruncatedFileError } from '../../../model/errors.js';
import { MAX_SAFETENSORS_HEADER_BYTES, decodeSafetensors, encodeSafetensors } from '../../../model/safetensors.js';
import { caught } from '../tokenizer/helpers.js';

const withHeader = (h: string, data: Uint8Array, claimed?: number): Uint8Array => {
  const hb = Buffer.from(h);
  const out = new Uint8Array(8 + hb.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(claimed ?? hb.length), true);
  out.set(hb, 8);
  out.set(data, 8 + hb.length);
  return out;
};
const f32 = (offsets: unknown, shape: unknown = [1], dtype: unknown = 'F32'): Record<string, unknown> => ({ dtype, shape, data_offsets: offsets });
const header = (h: Record<string, unknown>): string => JSON.stringify(h);

t.test('corrupt files', async (t) => {
  const good = encodeSafetensors([['a', { shape: [2], data: Float32Array.of(1, 2) }], ['b', { shape: [1], data: Float32Array.of(3) }]]);
  const data = new Uint8Array(12);
  type Case = [string, Uint8Array, abstract new (...args: never[]) => Error, RegExp];
  const cases: Case[] = [
    ['header not JSON', withHeader('{"a": ', data), CorruptFileError, /not JSON/],
    ['empty header', withHeader('', data), CorruptFileError, /not JSON/],
    ['header a JSON array', withHeader('[1, 2]', data), CorruptFileError, /not a JSON object/],
    ['header JSON null', withHeader('null', data), CorruptFileError, /not a JSON object/],
    ['__metadata__ an array', withHeader(header({ __metadata__: ['x'], a: f32([0, 12], [3]) }), data), CorruptFileError, /__metadata__ is not an object/],
    ['__metadata__ value not a string', withHeader(header({ __metadata__: { step: 3 }, a: f32([0, 12], [3]) }), data), CorruptFileError, /__metadata__\.step is not a string/],
    ['hole between tensors', withHeader(header({ a: f32([0, 4]), b: f32([8, 12]) }), data), CorruptFileError, /"b" starts at 8, expected 4 \(hole or overlap\)/],
    ['hole at the start', withHeader(header({ a: f32([4, 12], [2]) }), data), CorruptFileError, /"a" starts at 4, expected 0/],
    ['overlap', withHeader(header({ a: f32([0, 8], [2]), b: f32([4, 12], [2]) }), data), CorruptFileError, /hole or overlap/],
    ['two tensors on one range', withHeader(header({ a: f32([0, 12], [3]), b: f32([0, 12], [3]) }), data), CorruptFileError, /hole or overlap/],
    ['a name given twice (the JSON keeps the last)', withHeader('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', data), CorruptFileError, /"a" starts at 4, expected 0/],
    ['size vs shape', withHeader(header({ a: f32([0, 12], [2]) }), data), CorruptFileError, /12 bytes for shape \[2\]/],
    ['size vs dtype', withHeader(header({ a: f32([0, 12], [3], 'F64') }), data), CorruptFileError, /12 bytes for shape \[3\] of F64/],
    ['a shape whose product is huge', withHeader(header({ a: f32([0, 12], [1e9, 1e9]) }), data), CorruptFileError, /12 bytes for shape \[1000000000, 1000000000\]/],
    ['unknown dtype', withHeader(header({ a: f32([0, 12], [3], 'Q4') }), data), CorruptFileError, /"a" has unknown dtype "Q4"/],
    ['no dtype', withHeader(header({ a: { shape: [3], data_offsets: [0, 12] } }), data), CorruptFileError, /"a" has unknown dtype undefined/],
    ['a tensor entry that is not an object', withHeader(header({ a: 7 }), data), CorruptFileError, /"a" has unknown dtype/],
    ['negative dimension', withHeader(header({ a: f32([0, 12], [-3]) }), data), CorruptFileError, /"a" has invalid shape \[-3\]/],
    ['fractional dimension', withHeader(header({ a: f32([0, 12], [1.5]) }), data), CorruptFileError, /invalid shape/],
    ['shape not an array', withHeader(header({ a: f32([0, 12], 3) }), data), CorruptFileError, /invalid shape 3/],
    ['offsets reversed', withHeader(header({ a: f32([12, 0], [3]) }), data), CorruptFileError, /invalid data_offsets \[12,0\]/],
    ['offsets negative', withHeader(header({ a: f32([-4, 8], [3]) }), data), CorruptFileError, /invalid data_offsets/],
    ['offsets as strings', withHeader(header({ a: f32(['0', '12'], [3]) }), data), CorruptFileError, /invalid data_offsets/],
    ['three offsets', withHeader(header({ a: f32([0, 4, 12], [3]) }), data), CorruptFileError, /invalid data_offsets/],
    ['offsets past the data', withHeader(header({ a: f32([8, 24], [4]) }), data), TruncatedFileError, /"a" ends at data byte 24, file holds 12 data bytes/],
    ['offsets beyond 2^53', withHeader(header({ a: f32([0, 2 ** 60], [3]) }), data), CorruptFileError, /invalid data_offsets/],
    ['trailing bytes', withHeader(header({ a: f32([0, 8], [2]) }), data), CorruptFileError, /4 bytes after the last tensor/],
    ['header length past the file', withHeader('{}', data, 4096), TruncatedFileError, /header needs 4104 bytes, file has 22/],
    ['file shorter than the length field', Uint8Array.of(1, 0, 0), TruncatedFileError, /3 bytes, shorter than the 8-byte header length/],
    ['header length just over the cap', withHeader('{}', data, MAX_SAFETENSORS_HEADER_BYTES + 1), OversizeHeaderError, /header length 100000001 exceeds the 100000000-byte limit/],
    ['huge header length', Uint8Array.from([255, 255, 255, 255, 255, 255, 255, 255, 0]), OversizeHeaderError, /header length 18446744073709551615 exceeds/],
  ];
  for (const [what, bytes, Class, message] of cases) {
    const e = caught(() => decodeSafetensors(bytes, 'x.safetensors'));
    t.ok(e instanceof Class && message.test(String(e)) && String(e).includes('x.safetensors'), `${what}: ${String(e)}`);
  }
  t.equal(decodeSafetensors(good).tensors.size, 2);
  t.equal(decodeSafetensors(withHeader('{}', new Uint8Array(0))).tensors.size, 0, 'an empty file of no tensors is valid');
});
