// Truncated or corrupt safetensors files fail with TruncatedFileError / CorruptFileError, and the
// format matches the reference layout (so other tools read our files and we read theirs).
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { CHECKPOINT_FILES, loadCheckpoint, saveCheckpoint } from '../../../model/checkpoint.js';
import { CorruptFileError, TruncatedFileError } from '../../../model/errors.js';
import { decodeSafetensors, encodeSafetensors, toFloat32 } from '../../../model/safetensors.js';
import { byteTokenizer } from '../../../model/tokenizer.js';
import { caught, caughtAsync } from '../tokenizer/helpers.js';
import { makeParams, SHAPES, tempDir } from './fixture.js';

t.test('truncated weights file', async (t) => {
  const dir = join(await tempDir(t), 'ckpt');
  await saveCheckpoint(dir, { model: {}, params: makeParams(), shapes: SHAPES, tokenizer: byteTokenizer(), policyVersion: 0, step: 0 });
  const path = join(dir, CHECKPOINT_FILES.weights);
  const full = await readFile(path);
  await truncate(path, full.length - 3);
  let e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof TruncatedFileError && /ends at data byte/.test(String(e)) && String(e).includes(CHECKPOINT_FILES.weights), String(e));
  await truncate(path, 20);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof TruncatedFileError && /header needs/.test(String(e)), String(e));
  await truncate(path, 5);
  e = await caughtAsync(() => loadCheckpoint(dir, { shapes: SHAPES }));
  t.ok(e instanceof TruncatedFileError, String(e));
});

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

t.test('layout matches the reference format', async (t) => {
  const bytes = encodeSafetensors([['a', { shape: [2], data: Float32Array.of(1, 2) }]], { format: 'pt' });
  const header = '{"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}';
  const padded = header + ' '.repeat((8 - (header.length % 8)) % 8);
  t.equal(Number(new DataView(bytes.buffer).getBigUint64(0, true)), padded.length, '8-byte LE header length');
  t.equal(Buffer.from(bytes.subarray(8, 8 + padded.length)).toString(), padded, 'JSON header padded with spaces to 8 bytes');
  t.same([...new Float32Array(bytes.slice(8 + padded.length).buffer)], [1, 2], 'little-endian data');
});

t.test('F16 and BF16 read', async (t) => {
  // 1, -2, 2^-24 (smallest subnormal), +Inf, 65504 (largest half)
  const half = Uint16Array.of(0x3c00, 0xc000, 0x0001, 0x7c00, 0x7bff);
  const bf = Uint16Array.of(0x3f80, 0xc000, 0x3e80, 0xff80, 0x4049); // 1, -2, 0.25, -Inf, 3.140625
  const vals16 = toFloat32({ dtype: 'F16', shape: [5], bytes: new Uint8Array(half.buffer) }, 'h');
  const valsBf = toFloat32({ dtype: 'BF16', shape: [5], bytes: new Uint8Array(bf.buffer) }, 'b');
  t.same([...vals16], [1, -2, 2 ** -24, Infinity, 65504]);
  t.same([...valsBf], [1, -2, 0.25, -Infinity, 3.140625]);
});
