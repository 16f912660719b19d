// Without a server: the payload round-trips and its checks name the tensor, and bad options name the field.
import t from 'tap';
import {
  WeightPublisher, WeightWatcher, configHash, decodeWeightPayload, encodeWeightPayload, validateWeightPublisherOptions,
  validateWeightWatcherOptions, type WeightPublisherOptions,
} from '../../../model/weight-sync.js';
import type { Connection } from '../../../runtime/connection.js';
import { SMALL, SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights } from './setup.js';

const hash = configHash(SMALL_CONFIG);

t.test('config hash ignores key order', async (t) => {
  t.equal(configHash({ b: 1, a: { y: 2, x: [1, 2] } }), configHash({ a: { x: [1, 2], y: 2 }, b: 1 }));
  t.not(configHash(SMALL), configHash({ ...SMALL, ffnHidden: 64 }));
});

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

t.test('options name the bad field', async (t) => {
  const conn = {} as Connection; // never used: validation happens in the constructor
  t.throws(() => new WeightPublisher(conn, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, keep: 1 }), { name: 'ModelOptionError', field: 'keep', message: /options\.keep must be an integer >= 2/ });
  t.throws(() => validateWeightPublisherOptions({ modelConfig: null as unknown as object, shapes: SMALL_SHAPES }), { name: 'ModelOptionError', field: 'modelConfig' });
  t.throws(() => validateWeightPublisherOptions({ modelConfig: {}, shapes: SMALL_SHAPES, chunkBytes: 10 }), { name: 'ModelOptionError', field: 'chunkBytes' });
  t.throws(() => validateWeightPublisherOptions({ modelConfig: {}, shapes: SMALL_SHAPES, timeoutMs: 0 }), { name: 'ModelOptionError', field: 'timeoutMs' });
  t.throws(() => validateWeightPublisherOptions({ modelConfig: {} } as WeightPublisherOptions), { name: 'ModelOptionError', field: 'shapes' });
  const onWeights = (): void => undefined;
  t.throws(() => new WeightWatcher(conn, { shapes: SMALL_SHAPES, onWeights: 5 as unknown as typeof onWeights }), { name: 'ModelOptionError', field: 'onWeights' });
  t.throws(() => validateWeightWatcherOptions({ shapes: SMALL_SHAPES, onWeights, dtype: 'int8' as 'float32' }), { name: 'ModelOptionError', field: 'dtype' });
  t.throws(() => validateWeightWatcherOptions({ shapes: SMALL_SHAPES, onWeights, fromVersion: -2 }), { name: 'ModelOptionError', field: 'fromVersion' });
  t.throws(() => validateWeightWatcherOptions({ shapes: SMALL_SHAPES, onWeights, retryDelayMs: 0.5 }), { name: 'ModelOptionError', field: 'retryDelayMs' });
  t.throws(() => validateWeightWatcherOptions({ shapes: null as unknown as Map<string, number[]>, onWeights }), { name: 'ModelOptionError', field: 'shapes' });
  t.match(validateWeightWatcherOptions({ shapes: SMALL_SHAPES, onWeights }), { dtype: 'float32', fromVersion: -1, maxRetries: 3 });
});
