// The live push (over the bus, or handed over in process) replaces the download only when the pushed bytes match
// the KV record's size and sha256: other bytes pushed under the record's object name are reported as a
// WeightIntegrityError and the watcher downloads the stored object instead, so the integrity checks still hold.
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

  // Other bytes pushed under the object name the record names: refused, then the stored object is downloaded.
  const { kv, os } = await openWeightStores(learner);
  const hash = configHash(SMALL_CONFIG);
  const real = encodeWeightPayload(smallWeights(3), { version: 3, step: 3, configHash: hash }, SMALL_SHAPES);
  const fake = encodeWeightPayload(smallWeights(33), { version: 3, step: 3, configHash: hash }, SMALL_SHAPES);
  t.equal(fake.length, real.length, 'same size, other values');
  const object = 'policy/v3-pushed-other-bytes';
  await os.putBlob({ name: object }, real);
  pushLive(learner.nc, object, fake, 1024);
  await learner.nc.flush();
  const sha256 = createHash('sha256').update(real).digest('hex');
  await kv.put(POLICY_KEY, encode(PolicyVersion, { version: 3, object, step: 3, ts: Date.now(), sha256, bytes: real.length, configHash: hash }));
  await watcher.waitForVersion(3);
  t.ok(sameBits(got.get(3)!, smallWeights(3)), 'the stored bytes were applied, not the pushed ones');
  t.equal(errors.length, 1, 'one error reported');
  t.ok(isWeightIntegrityError(errors[0]), 'WeightIntegrityError');
  t.match(errors[0], { version: 3, object, message: /pushed sha256 .* differs from the record's/ });
  t.match(watcher.liveStats, { used: 2, missed: 1 }, 'counted as a miss');
});
