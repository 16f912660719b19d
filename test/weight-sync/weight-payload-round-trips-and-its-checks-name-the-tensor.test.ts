// Without a server: a weight payload round-trips bit-exactly (float64 weights rounded once to float32), and its
// checks on decode and encode name the tensor, the object or the record field that is wrong.
import t from 'tap';
import { configHash, decodeWeightPayload, encodeWeightPayload } from '../../weight-sync/index.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights } from './setup.js';

const hash = configHash(SMALL_CONFIG);

t.test('payload round trip and its checks', async (t) => {
  const w = smallWeights(3);
  const bytes = encodeWeightPayload(w, { version: 7, step: 70, configHash: hash }, SMALL_SHAPES);
  const back = decodeWeightPayload(bytes, { shapes: SMALL_SHAPES, dtype: 'float32', version: 7, configHash: hash });
  t.match(back, { version: 7, step: 70, configHash: hash });
  t.ok(sameBits(back.weights, w));

  t.throws(() => decodeWeightPayload(bytes, { shapes: SMALL_SHAPES, dtype: 'float32', version: 8 }), { code: 'WEIGHT_INTEGRITY' }, 'version differs from the record');
  t.throws(() => decodeWeightPayload(bytes, { shapes: SMALL_SHAPES, dtype: 'float32', configHash: 'f'.repeat(64) }), { code: 'WEIGHT_CONTENT', message: /model config/ });
  const fewer = new Map(SMALL_SHAPES);
  fewer.delete('norm.weight');
  t.throws(() => decodeWeightPayload(bytes, { shapes: fewer, dtype: 'float32' }), { code: 'WEIGHT_CONTENT', tensor: 'norm.weight', message: /unexpected tensor "norm.weight"/ });
  const more = new Map(SMALL_SHAPES).set('output.weight', [32, 16]);
  t.throws(() => decodeWeightPayload(bytes, { shapes: more, dtype: 'float32' }), { tensor: 'output.weight', message: /missing tensor/ });
  t.throws(() => decodeWeightPayload(bytes.subarray(0, bytes.length - 4), { shapes: SMALL_SHAPES, dtype: 'float32', object: 'x' }), { code: 'WEIGHT_CONTENT', object: 'x', message: /truncated|bytes/ });

  // A float64 learner's weights reach a float32 sampler rounded once, as Float32Array.from would.
  const w64 = new Map([...w].map(([n, a]) => [n, Float64Array.from(a, (x) => x + 1e-9)]));
  const from64 = decodeWeightPayload(encodeWeightPayload(w64, { version: 1, step: 0, configHash: hash }, SMALL_SHAPES), { shapes: SMALL_SHAPES, dtype: 'float32' });
  t.ok(sameBits(from64.weights, new Map([...w64].map(([n, a]) => [n, Float32Array.from(a)]))), 'F64 payload converts to float32');

  const short = new Map(w).set('norm.weight', new Float32Array(3));
  t.throws(() => encodeWeightPayload(short, { version: 1, step: 0, configHash: hash }, SMALL_SHAPES), { name: 'WeightContentError', tensor: 'norm.weight' }, 'refused before upload');
  const extra = new Map(w).set('lm_head.weight', new Float32Array(4));
  t.throws(() => encodeWeightPayload(extra, { version: 1, step: 0, configHash: hash }, SMALL_SHAPES), { name: 'WeightContentError', tensor: 'lm_head.weight' });
});
