// A Hugging Face directory stored in F16 (the Qwen2 fixture's weights rounded to half precision and written as F16)
// loads with every tensor widened to float32 exactly (each holds the halves it stored, decoded by hand), reports F16
// as its stored dtype, and scores close to the F32 original (the rounding moves the log-probs a little, nothing more).
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { loadModel } from '../../../model/load-model.js';
import { decodeSafetensors } from '../../../model/safetensors.js';
import { hfTensorName } from '../../../model/hf-weights.js';
import { ModelSession } from '../../../model/session.js';
import { tempDir } from '../../helpers/nats.js';
import { EXPECTED, fixtureDir, maxAbsDiff } from './fixtures.js';

/** The half-precision bits nearest x (normal and subnormal range; the fixture's weights are far from overflow). */
function halfBits(x: number): number {
  const u = new Uint32Array(Float32Array.of(x).buffer)[0]!;
  const sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, mant = u & 0x7fffff;
  if (exp <= 0) return exp < -10 ? sign : sign | Math.round((mant | 0x800000) / 2 ** (14 - exp));
  return sign | ((exp << 10) + Math.round(mant / 2 ** 13)); // a mantissa that rounds up to 1024 carries into the exponent
}

/** A half's value, from its fields. */
const halfValue = (h: number): number => {
  const s = h & 0x8000 ? -1 : 1, e = (h >>> 10) & 0x1f, m = h & 0x3ff;
  return e === 0 ? s * m * 2 ** -24 : s * (1 + m / 1024) * 2 ** (e - 15);
};

function encodeF16(tensors: Map<string, { shape: number[]; halves: Uint16Array }>): Uint8Array {
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const [name, x] of tensors) (header[name] = { dtype: 'F16', shape: x.shape, data_offsets: [offset, offset + x.halves.byteLength] }, (offset += x.halves.byteLength));
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (Buffer.byteLength(json) % 8)) % 8);
  const out = new Uint8Array(8 + json.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(Buffer.from(json), 8);
  let at = 8 + json.length;
  for (const x of tensors.values()) (out.set(new Uint8Array(x.halves.buffer), at), (at += x.halves.byteLength));
  return out;
}

t.test('F16 weights load widened to float32 exactly', async (t) => {
  const name = 'qwen2-f32-tied';
  const dir = join(tempDir(t, 'hf-f16-'), name);
  await cp(fixtureDir(name), dir, { recursive: true });
  const f32 = decodeSafetensors(await readFile(join(dir, 'model.safetensors')));
  const halves = new Map<string, { shape: number[]; halves: Uint16Array }>();
  for (const [n, x] of f32.tensors) {
    const v = new Float32Array(Uint8Array.from(x.bytes).buffer);
    halves.set(n, { shape: [...x.shape], halves: Uint16Array.from(v, halfBits) });
  }
  await writeFile(join(dir, 'model.safetensors'), encodeF16(halves));

  const m = await loadModel(dir);
  t.same(m.dtypes, ['F16'], 'stored F16');
  const original = await loadModel(fixtureDir(name));
  t.same([...m.params.keys()].sort(), [...original.params.keys()].sort(), 'the same parameters');
  // Import permutes q/k rows into the decoder's rotary layout, so each tensor is compared as the multiset of its values.
  const sorted = (a: ArrayLike<number>): number[] => Array.from(a).sort((x, y) => x - y);
  const differing = [...m.params].filter(([n, p]) => {
    const stored = halves.get(hfTensorName(n));
    return stored === undefined || JSON.stringify(sorted(p)) !== JSON.stringify(sorted(Float32Array.from(stored.halves, halfValue)));
  }).map(([n]) => n);
  t.same(differing, [], 'every tensor holds exactly its stored halves, widened');

  const tokens = BigInt64Array.from(EXPECTED.tokens.map(BigInt)), T = tokens.length;
  const s = await ModelSession.create(m.model, { graphs: ['score'] });
  const r = await s.score({ tokens, batch: 1, time: T, mask: new Float32Array(T - 1).fill(1) }, m.params);
  await s.release();
  const d = maxAbsDiff(r.logp, EXPECTED.models[name]!.logprobs);
  t.ok(d > 0 && d < 0.05, `log-probs within 0.05 of the F32 model's (max abs diff ${d.toExponential(2)}): rounding, nothing more`);
});
