// Bad weight publisher and watcher options throw ModelOptionError naming the field, in the constructors too.
import t from 'tap';
import { WeightPublisher, WeightWatcher, validateWeightPublisherOptions, validateWeightWatcherOptions, type WeightPublisherOptions } from '../../weight-sync/index.js';
import type { Connection } from '../../runtime/connection.js';
import { SMALL_CONFIG, SMALL_SHAPES } from './setup.js';

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
