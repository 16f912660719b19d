// Versions announced while the consumer is still busy with one coalesce: the watcher applies only the newest of
// them next, never an intermediate one and never an older one.
import t from 'tap';
import { WeightPublisher, WeightWatcher, type PolicyRecord } from '../../weight-sync/index.js';
import type { Weights } from '../../model/session.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, signal, smallWeights, twoConnections } from './setup.js';

t.setTimeout(30_000); // waits below are on events; this turns a missed one into a quick failure

t.test('a burst during a slow apply ends in the newest version only', async (t) => {
  const { learner, sampler } = await twoConnections(t);
  const publisher = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, keep: 2 });
  const applied: Array<[number, Weights]> = [];
  const firstApplying = signal();
  const release = signal();
  const seen6 = signal<PolicyRecord>();
  const watcher = await WeightWatcher.start(sampler, {
    shapes: SMALL_SHAPES,
    onWeights: async (w, v) => {
      applied.push([v, w]);
      if (v === 1) {
        firstApplying.resolve();
        await release.promise; // the consumer is busy (e.g. a long decode step) while the burst arrives
      }
    },
    onSeen: (rec) => { if (rec.version === 6) seen6.resolve(rec); },
  });
  t.teardown(() => watcher.stop());

  await publisher.publish(smallWeights(1), { version: 1, step: 0 });
  await firstApplying.promise;
  for (let v = 2; v <= 6; v++) await publisher.publish(smallWeights(v), { version: v, step: v });
  await seen6.promise;
  t.equal(watcher.version, -1, 'version 1 counts as applied only once onWeights returns');
  t.equal(watcher.latestSeen, 6);
  release.resolve();
  await watcher.waitForVersion(6);
  t.same(applied.map(([v]) => v), [1, 6], 'versions 2..5 were skipped');
  t.ok(sameBits(applied[1]![1], smallWeights(6)), 'the newest weights, bit for bit');
});
