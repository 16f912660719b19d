// The live push (over the bus, or handed over in process) replaces the download only when the pushed bytes match
// the KV record's size and sha256: other bytes pushed under the record's object name are reported as a
// WeightIntegrityError and the watcher downloads the stored object instead, so the integrity checks still hold.
// While a publisher in the watcher's process hands its bytes over, the watcher drops the bus push; a version that
// was not handed over (published elsewhere) is downloaded and brings the subscription back.
import t from 'tap';
import { createHash } from 'node:crypto';
import { POLICY_KEY, WeightPublisher, WeightWatcher, configHash, encodeWeightPayload, isWeightIntegrityError, openWeightStores } from '../../weight-sync/index.js';
import { pushLive } from '../../weight-sync/index.js';
import type { Weights } from '../../model/session.js';
import { PolicyVersion } from '../../runtime/message-types.js';
import { encode } from '../../runtime/messages.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights, twoConnections } from './setup.js';

t.setTimeout(30_000); // waits below are on events; this turns a missed one into a quick failure

t.test('pushed bytes replace the download only when they match', async (t) => {
  const { learner, sampler } = await twoConnections(t);
  const got = new Map<number, Weights>();
  const errors: unknown[] = [];
  const watcher = await WeightWatcher.start(sampler, {
    shapes: SMALL_SHAPES, modelConfig: SMALL_CONFIG, onWeights: (w, v) => void got.set(v, w), onError: (err) => void errors.push(err),
  });
  t.teardown(() => watcher.stop());

  // Over the bus only (no in-process hand-over): the watcher takes the push and downloads nothing.
  const bus = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, liveLocal: false });
  await bus.publish(smallWeights(1), { version: 1, step: 1 });
  await watcher.waitForVersion(1);
  t.ok(sameBits(got.get(1)!, smallWeights(1)), 'version 1 bit-exact');
  t.same(watcher.liveStats, { used: 1, missed: 0, refusedChunks: 0 }, 'taken from the push');

  // In process only (a connection without nc cannot push on the bus): the hand-over is taken.
  const inProcess = new WeightPublisher({ kvm: learner.kvm, objm: learner.objm }, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES });
  await inProcess.publish(smallWeights(2), { version: 2, step: 2 });
  await watcher.waitForVersion(2);
  t.ok(sameBits(got.get(2)!, smallWeights(2)), 'version 2 bit-exact');
  t.equal(watcher.liveStats?.used, 2, 'taken from the hand-over');

  // Published elsewhere after a hand-over: nothing pushed reaches the watcher, which downloads it and subscribes again.
  await bus.publish(smallWeights(3), { version: 3, step: 3 });
  await watcher.waitForVersion(3);
  t.ok(sameBits(got.get(3)!, smallWeights(3)), 'version 3 bit-exact');
  t.match(watcher.liveStats, { used: 2, missed: 1 }, 'downloaded: the bus push was not subscribed after the hand-over');
  await sampler.nc.flush(); // the server has the new subscription before the next push
  await bus.publish(smallWeights(4), { version: 4, step: 4 });
  await watcher.waitForVersion(4);
  t.match(watcher.liveStats, { used: 3, missed: 1 }, 'the next one came by the bus push again');

  // Other bytes pushed under the object name the record names: refused, then the stored object is downloaded.
  const { kv, os } = await openWeightStores(learner);
  const hash = configHash(SMALL_CONFIG);
  const real = encodeWeightPayload(smallWeights(5), { version: 5, step: 5, configHash: hash }, SMALL_SHAPES);
  const fake = encodeWeightPayload(smallWeights(55), { version: 5, step: 5, configHash: hash }, SMALL_SHAPES);
  t.equal(fake.length, real.length, 'same size, other values');
  const object = 'policy/v5-pushed-other-bytes';
  await os.putBlob({ name: object }, real);
  pushLive(learner.nc, object, fake, 1024);
  await learner.nc.flush();
  const sha256 = createHash('sha256').update(real).digest('hex');
  await kv.put(POLICY_KEY, encode(PolicyVersion, { version: 5, object, step: 5, ts: Date.now(), sha256, bytes: real.length, configHash: hash }));
  await watcher.waitForVersion(5);
  t.ok(sameBits(got.get(5)!, smallWeights(5)), 'the stored bytes were applied, not the pushed ones');
  t.equal(errors.length, 1, 'one error reported');
  t.ok(isWeightIntegrityError(errors[0]), 'WeightIntegrityError');
  t.match(errors[0], { version: 5, object, message: /pushed sha256 .* differs from the record's/ });
  t.match(watcher.liveStats, { used: 3, missed: 2 }, 'counted as a miss');
});
