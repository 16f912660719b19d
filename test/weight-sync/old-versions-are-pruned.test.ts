// The object store keeps the last `keep` published versions: older objects are deleted after each publish, while
// an object newer than the published version (another publisher's upload in flight) is left alone.
import t from 'tap';
import { WeightPublisher, openWeightStores } from '../../weight-sync/index.js';
import { SMALL_CONFIG, SMALL_SHAPES, smallWeights, twoConnections } from './setup.js';

t.setTimeout(30_000);

t.test('keep 2', async (t) => {
  const { learner } = await twoConnections(t);
  const { os } = await openWeightStores(learner);
  const publisher = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, keep: 2 });
  const inFlight = 'policy/v99-upload-in-flight';
  await os.putBlob({ name: inFlight }, new Uint8Array([0]));
  const names: string[] = [];
  const prunedBy: string[][] = [];
  for (let v = 1; v <= 5; v++) {
    const res = await publisher.publish(smallWeights(v), { version: v, step: v });
    names.push(res.record.object);
    prunedBy.push(res.pruned);
  }
  t.same(prunedBy, [[], [], [names[0]], [names[1]], [names[2]]], 'each publish deletes the version that fell out');
  const left = (await os.list()).map((o) => o.name).sort();
  t.same(left, [names[3], names[4], inFlight].sort());
  t.equal(await os.get(names[0]!), null, 'a pruned object cannot be read');
});
