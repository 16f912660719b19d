// A version published on one connection reaches a watcher on another bit for bit, with its KV record filled in;
// a watcher that starts later gets the current version at once and never an older one.
import t from 'tap';
import { WeightPublisher, WeightWatcher, configHash, readPolicyRecord, openWeightStores } from '../../weight-sync/index.js';
import type { Weights } from '../../model/session.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights, twoConnections } from './setup.js';

t.setTimeout(30_000); // waits below are on events; this turns a missed one into a quick failure

t.test('publish, then watchers early and late', async (t) => {
  const { learner, sampler } = await twoConnections(t);
  const publisher = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES });
  t.equal(await publisher.current(), null, 'nothing published yet');
  t.equal(await publisher.currentVersion(), -1);

  const early: Array<[number, Weights]> = [];
  const watcher = await WeightWatcher.start(sampler, { shapes: SMALL_SHAPES, modelConfig: SMALL_CONFIG, onWeights: (w, v) => void early.push([v, w]) });
  t.teardown(() => watcher.stop());

  const w1 = smallWeights(1);
  const res = await publisher.publish(w1, { version: 1, step: 100 });
  t.match(res.record, { version: 1, step: 100, configHash: configHash(SMALL_CONFIG), object: /^policy\/v1-[0-9a-f]+$/ });
  t.equal(res.record.sha256?.length, 64);
  const stored = await readPolicyRecord((await openWeightStores(sampler)).kv);
  t.same(stored?.record, res.record, 'KV holds the record');
  t.equal(stored?.revision, res.revision);

  await watcher.waitForVersion(1);
  t.equal(early.length, 1);
  t.equal(early[0]![0], 1);
  t.ok(sameBits(early[0]![1], w1), 'bit-exact float32 weights');
  t.equal(watcher.version, 1);

  const w2 = smallWeights(2);
  await publisher.publish(w2, { version: 2, step: 200 });
  await watcher.waitForVersion(2);
  t.ok(sameBits(early[1]![1], w2));

  // Starts after two versions exist: gets version 2 only, as float64 when asked.
  const late: Array<[number, Weights]> = [];
  const lateWatcher = await WeightWatcher.start(sampler, { shapes: SMALL_SHAPES, dtype: 'float64', onWeights: (w, v) => void late.push([v, w]) });
  t.teardown(() => lateWatcher.stop());
  await lateWatcher.waitForVersion(2);
  t.same(late.map(([v]) => v), [2]);
  const asF64 = new Map([...w2].map(([n, a]) => [n, Float64Array.from(a)]));
  t.ok(sameBits(late[0]![1], asF64), 'float64 delivery holds the same values');

  // Starting above the current version (the consumer already runs it) delivers nothing until a newer one.
  const ahead: number[] = [];
  const aheadWatcher = await WeightWatcher.start(sampler, { shapes: SMALL_SHAPES, fromVersion: 2, onWeights: (_w, v) => void ahead.push(v) });
  t.teardown(() => aheadWatcher.stop());
  await publisher.publish(smallWeights(3), { version: 3, step: 300 });
  await Promise.all([aheadWatcher.waitForVersion(3), watcher.waitForVersion(3), lateWatcher.waitForVersion(3)]);
  t.same(ahead, [3]);
  t.same(early.map(([v]) => v), [1, 2, 3]);
  t.same(late.map(([v]) => v), [2, 3]);
});
