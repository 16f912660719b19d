// Watchers of one process that were handed the same bytes decode and finite-check them once between them: their
// early checks return the same decoded payload. Other expectations (another dtype) decode on their own, and a
// payload that fails its checks fails for every watcher.
import t from 'tap';
import { EarlyCheck } from '../../weight-sync/early-check.js';
import { configHash, encodeWeightPayload } from '../../weight-sync/index.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights } from './setup.js';

t.test('handed bytes are decoded once per process and expectations', async (t) => {
  const hash = configHash(SMALL_CONFIG);
  const bytes = encodeWeightPayload(smallWeights(1), { version: 1, step: 1, configHash: hash }, SMALL_SHAPES);
  const a = new EarlyCheck({ shapes: SMALL_SHAPES, dtype: 'float32', configHash: hash });
  const b = new EarlyCheck({ shapes: new Map(SMALL_SHAPES), dtype: 'float32', configHash: hash });
  const wide = new EarlyCheck({ shapes: SMALL_SHAPES, dtype: 'float64', configHash: hash });
  const ra = a.peek('policy/v1', bytes);
  const rb = b.peek('policy/v1', bytes);
  t.ok(ra.payload !== null && sameBits(ra.payload.weights, smallWeights(1)), 'decoded bit-exact');
  t.equal(rb.payload, ra.payload, 'the second watcher got the same decoded payload');
  t.equal(rb.sha256, ra.sha256, 'and the same sha256');
  const rw = wide.peek('policy/v1', bytes);
  t.not(rw.payload, ra.payload, 'other expectations decode on their own');
  t.ok(rw.payload?.weights.values().next().value instanceof Float64Array, 'as float64');

  const other = new EarlyCheck({ shapes: SMALL_SHAPES, dtype: 'float32', configHash: 'another-model' });
  t.equal(other.peek('policy/v1', bytes).payload, null, 'a watcher of another model refuses the same bytes');
  t.equal(new EarlyCheck({ shapes: SMALL_SHAPES, dtype: 'float32', configHash: 'another-model' }).peek('policy/v1', bytes).payload, null, 'and so does the next one');
});
