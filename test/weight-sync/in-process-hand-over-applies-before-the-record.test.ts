// Weights a publisher hands over in its own process are applied once their payload checks pass, before the upload
// ends and the KV record names them; the record then confirms them by sha256 and size. A handed-over version whose
// upload failed counts as taken in that process: another publisher there cannot publish other weights under it, and
// a record that names other bytes is reported. A watcher with applyHandedOver off waits for the record.
import t from 'tap';
import { POLICY_KEY, WeightPublisher, WeightWatcher, configHash, encodeWeightPayload, isStaleVersionError, isWeightIntegrityError, isWeightTransportError, openWeightStores, uncommittedHandOff } from '../../weight-sync/index.js';
import type { Weights } from '../../model/session.js';
import { PolicyVersion } from '../../runtime/message-types.js';
import { encode } from '../../runtime/messages.js';
import { OBJECT_STORES } from '../../runtime/subjects.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights, twoConnections } from './setup.js';
import { createHash } from 'node:crypto';

t.setTimeout(30_000); // waits below are on events; this turns a missed one into a quick failure

t.test('handed-over weights apply before their record, and their version stays taken', async (t) => {
  const { learner, sampler } = await twoConnections(t);
  const got: Array<{ version: number; weights: Weights }> = [];
  const errors: unknown[] = [];
  const early = await WeightWatcher.start(sampler, {
    shapes: SMALL_SHAPES, modelConfig: SMALL_CONFIG, onWeights: (weights, version) => void got.push({ version, weights }), onError: (err) => void errors.push(err),
  });
  const late: number[] = [];
  const waiting = await WeightWatcher.start(sampler, { shapes: SMALL_SHAPES, modelConfig: SMALL_CONFIG, applyHandedOver: false, onWeights: (_w, v) => void late.push(v), onError: () => undefined });
  t.teardown(async () => Promise.all([early.stop(), waiting.stop()]));
  const { kv } = await openWeightStores(learner);

  // Uploads fail while the weights stream takes no message bigger than 64 bytes.
  const stream = `OBJ_${OBJECT_STORES.weights}`;
  const config = (await learner.jsm.streams.info(stream)).config;
  const uploads = async (ok: boolean): Promise<void> => void await learner.jsm.streams.update(stream, { ...config, max_msg_size: ok ? -1 : 64 });

  await uploads(false);
  const a = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, timeoutMs: 2000 });
  const failed = await a.publish(smallWeights(1), { version: 1, step: 1 }).catch((err: unknown) => err);
  t.ok(isWeightTransportError(failed), `the upload failed: ${(failed as Error).message}`);
  await early.waitForVersion(1);
  t.equal(got.length, 1, 'applied once');
  t.ok(sameBits(got[0]!.weights, smallWeights(1)), 'version 1 applied bit-exact, with no record written');
  t.equal(await kv.get(POLICY_KEY), null, 'no record');
  t.equal(uncommittedHandOff(), 1, 'version 1 is taken in this process');

  // A restarted learner in this process (a new publisher) must continue above it.
  const b = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES });
  t.equal(await b.currentVersion(), 1, 'the next publish must exceed the handed-over version');
  const refused = await b.publish(smallWeights(9), { version: 1, step: 1 }).catch((err: unknown) => err);
  t.ok(isStaleVersionError(refused), 'another publisher here cannot publish other weights as version 1');

  // The first publisher's retry of the same weights lands: the record confirms what was applied.
  await uploads(true);
  await a.publish(smallWeights(1), { version: 1, step: 1 });
  await waiting.waitForVersion(1);
  t.same(late, [1], 'the waiting watcher applied version 1 only from its record');
  t.equal(uncommittedHandOff(), -1, 'committed');
  await b.publish(smallWeights(2), { version: 2, step: 2 });
  await early.waitForVersion(2);
  t.same(got.map((g) => g.version), [1, 2], 'the record of version 1 applied nothing again');
  t.same(errors, [], 'nothing reported');

  // A record that names other bytes than the handed-over ones (another host's publisher won the version): reported.
  await uploads(false);
  await b.publish(smallWeights(3), { version: 3, step: 3 }).catch(() => undefined);
  await early.waitForVersion(3);
  await uploads(true);
  const { os } = await openWeightStores(learner);
  const other = encodeWeightPayload(smallWeights(33), { version: 3, step: 3, configHash: configHash(SMALL_CONFIG) }, SMALL_SHAPES);
  await os.putBlob({ name: 'policy/v3-elsewhere' }, other);
  const sha256 = createHash('sha256').update(other).digest('hex');
  await kv.put(POLICY_KEY, encode(PolicyVersion, { version: 3, object: 'policy/v3-elsewhere', step: 3, ts: Date.now(), sha256, bytes: other.length, configHash: configHash(SMALL_CONFIG) }));
  await waiting.waitForVersion(3);
  t.equal(errors.length, 1, 'one error reported');
  t.ok(isWeightIntegrityError(errors[0]), 'a WeightIntegrityError');
  t.match(errors[0], { version: 3, object: 'policy/v3-elsewhere', message: /handed over in this process .* not the ones the record names/ });
  await b.publish(smallWeights(4), { version: 4, step: 4 });
  await early.waitForVersion(4);
  t.same(got.map((g) => g.version), [1, 2, 3, 4], 'the next version is applied as usual');
  t.ok(sameBits(got[3]!.weights, smallWeights(4)), 'version 4 bit-exact');
});
