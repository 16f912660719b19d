// Without a server: a weights payload that is truncated, whose header lies (sizes, offsets, an oversize length),
// whose tensor has another shape or dtype, or which holds a NaN or an infinity (also an F64 value beyond the F32
// range of a float32 sampler) is refused by decodeWeightPayload with a WeightContentError naming the object and,
// where one is at fault, the tensor; the encoder refuses NaN/Inf before anything could be uploaded.
import t from 'tap';
import { OversizeHeaderError, decodeSafetensors, encodeSafetensors } from '../../model/index.js';
import {
  NonFiniteWeightsError, WEIGHT_METADATA, WeightContentError, configHash, decodeWeightPayload, encodeWeightPayload,
} from '../../weight-sync/index.js';
import { SMALL_CONFIG, SMALL_SHAPES, smallWeights } from './setup.js';

const hash = configHash(SMALL_CONFIG);
const META = { [WEIGHT_METADATA.version]: '1', [WEIGHT_METADATA.step]: '0', [WEIGHT_METADATA.configHash]: hash };
const TENSOR = 'layers.0.attention.wq.weight';

/** A payload of `smallWeights(1)` with one tensor changed by `edit` (F32 unless the edit says otherwise). */
function payloadWith(edit: (name: string, data: Float32Array) => { shape?: number[]; data?: Float32Array | Float64Array } | undefined): Uint8Array {
  const tensors = [...smallWeights(1)].map(([name, data]) => {
    const e = edit(name, data) ?? {};
    return [name, { shape: e.shape ?? SMALL_SHAPES.get(name)!, data: e.data ?? data }] as [string, { shape: number[]; data: Float32Array | Float64Array }];
  });
  return encodeSafetensors(tensors, META);
}
/** The good payload with its header replaced by `h(header)` (the data left as it is). */
function withHeader(h: (header: Record<string, unknown>) => Record<string, unknown>, claimed?: bigint): Uint8Array {
  const good = payloadWith(() => undefined);
  const n = Number(new DataView(good.buffer, good.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(Buffer.from(good.subarray(8, 8 + n)).toString()) as Record<string, unknown>;
  const hb = Buffer.from(JSON.stringify(h(header)));
  const data = good.subarray(8 + n);
  const out = new Uint8Array(8 + hb.length + data.length);
  new DataView(out.buffer).setBigUint64(0, claimed ?? BigInt(hb.length), true);
  out.set(hb, 8);
  out.set(data, 8 + hb.length);
  return out;
}
const entry = (h: Record<string, unknown>, name: string): { dtype: string; shape: number[]; data_offsets: [number, number] } => h[name] as never;

t.test('corrupt weight payloads are refused before use', async (t) => {
  const good = payloadWith(() => undefined);
  t.equal(decodeWeightPayload(good, { shapes: SMALL_SHAPES, dtype: 'float32', object: 'o' }).weights.size, SMALL_SHAPES.size, 'the untouched payload decodes');

  const nanAt7 = (name: string, d: Float32Array) => (name === TENSOR ? { data: d.map((x, i) => (i === 7 ? NaN : x)) } : undefined);
  const cases: Array<[string, Uint8Array, 'float32' | 'float64', { tensor?: string; message: RegExp; class?: abstract new (...a: never[]) => Error; cause?: abstract new (...a: never[]) => Error }]> = [
    ['truncated data', good.subarray(0, good.length - 5), 'float32', { message: /truncated file: tensor ".*" ends at data byte/ }],
    ['truncated header', good.subarray(0, 40), 'float32', { message: /truncated file: header needs/ }],
    ['header length past the cap', withHeader((h) => h, 1n << 40n), 'float32', { message: /header length 1099511627776 exceeds the 100000000-byte limit/, cause: OversizeHeaderError }],
    ['header says a bigger shape than its bytes', withHeader((h) => ({ ...h, [TENSOR]: { ...entry(h, TENSOR), shape: [16, 17] } })), 'float32', { message: /bytes for shape \[16, 17\]/ }],
    ['offsets that overlap the next tensor', withHeader((h) => {
      const e = entry(h, TENSOR);
      return { ...h, [TENSOR]: { ...e, data_offsets: [e.data_offsets[0] + 4, e.data_offsets[1] + 4] } };
    }), 'float32', { message: /hole or overlap|after the last tensor|ends at data byte/ }],
    ['offsets past the data', withHeader((h) => {
      const e = entry(h, TENSOR);
      return { ...h, [TENSOR]: { ...e, data_offsets: [e.data_offsets[0] + 1e6, e.data_offsets[1] + 1e6] } };
    }), 'float32', { message: new RegExp(`"${TENSOR.replace(/\./g, '\\.')}" ends at data byte`) }],
    ['a tensor with the right count but another shape', payloadWith((n) => (n === TENSOR ? { shape: [8, 32] } : undefined)), 'float32', { tensor: TENSOR, message: /has shape \[8, 32\], expected \[16, 16\]/ }],
    ['a tensor of another dtype', withHeader((h) => ({ ...h, [TENSOR]: { ...entry(h, TENSOR), dtype: 'I32' } })), 'float32', { tensor: TENSOR, message: /dtype I32, expected F32 or F64/ }],
    ['a NaN', payloadWith(nanAt7), 'float32', { tensor: TENSOR, class: NonFiniteWeightsError, message: /holds NaN at element 7/ }],
    ['an infinity', payloadWith((n, d) => (n === 'norm.weight' ? { data: d.map((x, i) => (i === 15 ? -Infinity : x)) } : undefined)), 'float32', { tensor: 'norm.weight', class: NonFiniteWeightsError, message: /holds -Infinity at element 15/ }],
    ['an F64 value beyond the F32 range', payloadWith((n, d) => (n === 'norm.weight' ? { data: Float64Array.from(d, (x, i) => (i === 2 ? 1e300 : x)) } : undefined)), 'float32', { tensor: 'norm.weight', class: NonFiniteWeightsError, message: /holds Infinity at element 2/ }],
    ['a NaN read as float64', payloadWith(nanAt7), 'float64', { tensor: TENSOR, class: NonFiniteWeightsError, message: /holds NaN/ }],
  ];
  for (const [what, bytes, dtype, want] of cases) {
    let err: unknown;
    try {
      decodeWeightPayload(bytes, { shapes: SMALL_SHAPES, dtype, object: 'policy/v1-x', version: 1 });
    } catch (e) {
      err = e;
    }
    const ok = err instanceof (want.class ?? WeightContentError)
      && (err as WeightContentError).object === 'policy/v1-x'
      && (want.tensor === undefined || (err as WeightContentError).tensor === want.tensor)
      && want.message.test(String(err))
      && (want.cause === undefined || (err as Error).cause instanceof want.cause);
    t.ok(ok, `${what}: ${String(err)}`);
  }

  const bad = new Map(smallWeights(2));
  bad.get('tok_embeddings.weight')![40] = NaN;
  let err: unknown;
  try {
    encodeWeightPayload(bad, { version: 3, step: 9, configHash: hash }, SMALL_SHAPES);
  } catch (e) {
    err = e;
  }
  t.ok(err instanceof NonFiniteWeightsError, `the encoder refuses too: ${String(err)}`);
  t.match(err, { code: 'WEIGHT_CONTENT', version: 3, tensor: 'tok_embeddings.weight', index: 40, message: /version 3: .*"tok_embeddings\.weight" holds NaN at element 40/ });
  t.equal(decodeSafetensors(good).tensors.size, SMALL_SHAPES.size);
});
