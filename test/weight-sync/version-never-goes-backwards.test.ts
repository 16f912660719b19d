// The published version only moves forward: an equal or lower version is refused before anything is uploaded, and
// publishers racing through the KV compare-and-set get exactly one winner per version, whatever the interleaving.
import t from 'tap';
import { StaleVersionError, WeightPublisher, WeightWatcher, isStaleVersionError, openWeightStores, POLICY_KEY } from '../../weight-sync/index.js';
import { PolicyVersion } from '../../runtime/message-types.js';
import { decode } from '../../runtime/messages.js';
import { SMALL_CONFIG, SMALL_SHAPES, smallWeights, twoConnections } from './setup.js';

t.setTimeout(30_000); // waits below are on events; this turns a missed one into a quick failure

t.test('refusals and races', async (t) => {
  const { learner, sampler } = await twoConnections(t);
  // Two publishers as on two hosts: neither hands its bytes to this process's watcher (a version handed over in a
  // process is refused to any other publisher there before uploading: in-process-hand-over-applies-before-the-record).
  const a = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, keep: 16, liveLocal: false });
  const b = new WeightPublisher(sampler, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, keep: 16, liveLocal: false });
  const applied: number[] = [];
  const watcher = await WeightWatcher.start(sampler, { shapes: SMALL_SHAPES, onWeights: (_w, v) => void applied.push(v) });
  t.teardown(() => watcher.stop());
  const { kv, os } = await openWeightStores(learner);
  const w = smallWeights(1);

  await a.publish(w, { version: 3, step: 0 });
  const objectsAfter3 = (await os.list()).map((o) => o.name);
  await t.rejects(a.publish(w, { version: 3, step: 1 }), { name: 'StaleVersionError', code: 'WEIGHT_STALE_VERSION', current: 3, offered: 3 });
  await t.rejects(b.publish(w, { version: 2, step: 1 }), StaleVersionError);
  t.same((await os.list()).map((o) => o.name), objectsAfter3, 'a refused version uploads nothing');

  // Same version from two publishers at once: both pass the pre-check, both upload, one compare-and-set wins.
  const objectEvents = await os.watch({ includeHistory: false });
  let deletes = 0;
  const counting = (async () => { for await (const e of objectEvents) if (e.deleted) deletes++; })();
  for (const version of [4, 5, 6, 7, 8]) {
    const results = await Promise.allSettled([a.publish(w, { version, step: version }), b.publish(w, { version, step: version })]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.equal(won.length, 1, `exactly one publisher wins version ${version}`);
    t.ok(lost.every((r) => isStaleVersionError(r.reason)), 'the other gets StaleVersionError');
    t.equal((await a.current())?.version, version);
  }
  objectEvents.stop();
  await counting;
  t.ok(deletes >= 1, `races decided by the compare-and-set after both uploads (losers deleted ${deletes} objects)`);
  // Different versions at once: the higher one ends up in KV whichever lands first.
  for (const [x, y] of [[10, 9], [11, 12]] as const) {
    await Promise.allSettled([a.publish(w, { version: x, step: 0 }), b.publish(w, { version: y, step: 0 })]);
    t.equal((await a.current())?.version, Math.max(x, y));
  }
  const versions = (await os.list()).map((o) => Number(/^policy\/v(\d+)-/.exec(o.name)?.[1]));
  t.equal(new Set(versions).size, versions.length, 'losers removed their objects: one object per version');

  const history: number[] = [];
  for await (const e of await kv.history({ key: POLICY_KEY })) if (e.operation === 'PUT') history.push(decode(PolicyVersion, e.value).version);
  t.ok(history.every((v, i) => i === 0 || v > history[i - 1]!), `KV history strictly increases: ${history.join(',')}`);
  await watcher.waitForVersion(12);
  t.ok(applied.every((v, i) => i === 0 || v > applied[i - 1]!), `applied versions strictly increase: ${applied.join(',')}`);
});
