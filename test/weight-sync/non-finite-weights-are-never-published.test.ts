// The publisher refuses weights holding a NaN or an infinity before uploading anything: no object appears in the
// store, the KV record keeps the last good version, and the error names the version, tensor and element.
import t from 'tap';
import { WeightPublisher, isNonFiniteWeightsError, openWeightStores } from '../../weight-sync/index.js';
import { SMALL_CONFIG, SMALL_SHAPES, smallWeights, twoConnections } from './setup.js';

t.test('non-finite weights are never published', async (t) => {
  const { learner } = await twoConnections(t);
  const { os } = await openWeightStores(learner);
  const publisher = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES });
  await publisher.publish(smallWeights(1), { version: 1, step: 1 });
  const before = (await os.list()).map((o) => o.name);

  for (const [value, tensor, index] of [[NaN, 'layers.0.feed_forward.w2.weight', 100], [Infinity, 'norm.weight', 0], [-Infinity, 'tok_embeddings.weight', 511]] as const) {
    const w = smallWeights(2);
    w.get(tensor)![index] = value;
    const err = await publisher.publish(w, { version: 2, step: 2 }).then(() => null, (e: unknown) => e);
    t.ok(isNonFiniteWeightsError(err), `${value} refused: ${String(err)}`);
    t.match(err, { version: 2, tensor, index, message: new RegExp(`version 2: .*holds ${value} at element ${index}`) });
  }
  t.same((await os.list()).map((o) => o.name), before, 'nothing was uploaded');
  t.match(await publisher.current(), { version: 1, step: 1 }, 'the record still names the last good version');
  await publisher.publish(smallWeights(2), { version: 2, step: 2 });
  t.match(await publisher.current(), { version: 2 }, 'finite weights of the same version publish');
});
