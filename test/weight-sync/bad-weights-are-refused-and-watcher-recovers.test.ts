// Weights that do not fit the model, hold a NaN, are bigger than the model's weights can be, or whose bytes were
// tampered with are refused with a typed error naming what differs; a missing object is retried until it appears or a newer version supersedes it; the watcher keeps
// running throughout and applies the next good version.
import t from 'tap';
import { parameterShapes } from '../../model/decoder.js';
import { validateDecoderConfig } from '../../model/decoder-config.js';
import { encodeSafetensors } from '../../model/safetensors.js';
import {
  POLICY_KEY, WEIGHT_METADATA, WeightPublisher, WeightWatcher, configHash, encodeWeightPayload, isNonFiniteWeightsError, isWeightContentError,
  isWeightIntegrityError, isWeightTransportError, maxPayloadBytes, openWeightStores, type PolicyRecord,
} from '../../weight-sync/index.js';
import { createHash } from 'node:crypto';
import { PolicyVersion } from '../../runtime/message-types.js';
import { encode } from '../../runtime/messages.js';
import { OBJECT_STORES } from '../../runtime/subjects.js';
import { SMALL, SMALL_CONFIG, SMALL_SHAPES, sameBits, smallWeights, twoConnections } from './setup.js';

t.setTimeout(30_000); // waits below are on events; this turns a missed one into a quick failure

t.test('refuse, report, recover', async (t) => {
  const { learner, sampler } = await twoConnections(t);
  const { kv, os } = await openWeightStores(learner);
  const publisher = new WeightPublisher(learner, { modelConfig: SMALL_CONFIG, shapes: SMALL_SHAPES, keep: 16 });
  const applied: number[] = [];
  const errors: Array<{ err: unknown; version: number | undefined }> = [];
  const listeners: Array<() => void> = [];
  const watcher = await WeightWatcher.start(sampler, {
    shapes: SMALL_SHAPES, maxRetries: 200, retryDelayMs: 20,
    onWeights: (w, v) => {
      applied.push(v);
      t.ok(sameBits(w, smallWeights(v)), `version ${v} arrives intact`);
    },
    onError: (err, rec) => {
      errors.push({ err, version: rec?.version });
      for (const l of listeners.splice(0)) l();
    },
  });
  t.teardown(() => watcher.stop());
  /** The first error reported for a version (undefined: a record that could not be read at all). */
  const errorFor = async (version: number | undefined): Promise<unknown> => {
    for (;;) {
      const hit = errors.find((e) => e.version === version);
      if (hit) return hit.err;
      await new Promise<void>((resolve) => listeners.push(resolve));
    }
  };
  const hash = configHash(SMALL_CONFIG);
  /** Writes a KV record by hand, as a faulty or malicious publisher would. */
  const putRecord = async (rec: Omit<PolicyRecord, 'ts' | 'configHash'>): Promise<void> => {
    await kv.put(POLICY_KEY, encode(PolicyVersion, { ...rec, ts: Date.now(), configHash: hash }));
  };
  const payload = (seed: number, version: number): Uint8Array => encodeWeightPayload(smallWeights(seed), { version, step: 0, configHash: hash }, SMALL_SHAPES);
  const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

  await publisher.publish(smallWeights(1), { version: 1, step: 0 });
  await watcher.waitForVersion(1);

  t.test('weights for another model (different feed-forward width): the tensor is named', async (t) => {
    const other = { ...SMALL, ffnHidden: 48 };
    const wrong = new WeightPublisher(learner, { modelConfig: validateDecoderConfig(other), shapes: parameterShapes(other) });
    const { initParameters } = await import('../../model/decoder.js');
    await wrong.publish(initParameters(other, 2), { version: 2, step: 0 });
    const err = await errorFor(2);
    t.ok(isWeightContentError(err), 'WeightContentError');
    t.match(err, { code: 'WEIGHT_CONTENT', version: 2, tensor: 'layers.0.feed_forward.w1.weight', message: /feed_forward\.w1\.weight.*\[48, 16\].*expected \[32, 16\]/ });
    t.match((err as Error).cause, { name: 'ShapeMismatchError' });
  });

  t.test('the next good version is applied', async () => {
    await publisher.publish(smallWeights(3), { version: 3, step: 0 });
    await watcher.waitForVersion(3);
  });

  t.test('a chunk appended to the stored object: digest mismatch', async (t) => {
    const bytes = payload(4, 4);
    const object = 'policy/v4-tampered';
    const info = await os.putBlob({ name: object }, bytes);
    await learner.js.publish(`$O.${OBJECT_STORES.weights}.C.${info.nuid}`, new Uint8Array([1, 2, 3]));
    await putRecord({ version: 4, object, step: 0, sha256: sha(bytes), bytes: bytes.length });
    const err = await errorFor(4);
    t.ok(isWeightIntegrityError(err), 'WeightIntegrityError');
    t.match(err, { code: 'WEIGHT_INTEGRITY', version: 4, object, message: /digest/ });
  });

  t.test('the object overwritten after the record was made: sha256 mismatch', async (t) => {
    const bytes = payload(5, 5);
    const object = 'policy/v5-overwritten';
    await os.putBlob({ name: object }, bytes);
    await os.putBlob({ name: object }, payload(55, 5)); // same size and version, other values
    await putRecord({ version: 5, object, step: 0, sha256: sha(bytes), bytes: bytes.length });
    const err = await errorFor(5);
    t.match(err, { code: 'WEIGHT_INTEGRITY', version: 5, message: /sha256/ });
  });

  t.test('a record that is not a PolicyVersion is reported and cannot lower the version', async (t) => {
    await kv.put(POLICY_KEY, new TextEncoder().encode('not msgpack'));
    const err = await errorFor(undefined);
    t.ok(isWeightContentError(err));
    await t.rejects(publisher.publish(smallWeights(1), { version: 5, step: 0 }), { name: 'StaleVersionError', current: 5 }, 'the history still holds version 5');
    t.equal(await publisher.current(), null, 'no valid record');
    t.equal(await publisher.currentVersion(), 5, 'but the version to exceed is 5');
  });

  t.test('a missing object is retried until a newer version supersedes it', async (t) => {
    await putRecord({ version: 6, object: 'policy/v6-never-uploaded', step: 0 });
    const err = await errorFor(6);
    t.ok(isWeightTransportError(err), 'WeightTransportError');
    t.match(err, { code: 'WEIGHT_TRANSPORT', version: 6, message: /not found/ });
    await publisher.publish(smallWeights(7), { version: 7, step: 0 });
    await watcher.waitForVersion(7);
  });

  t.test('a missing object is retried until it appears', async (t) => {
    const bytes = payload(8, 8);
    const object = 'policy/v8-late';
    await putRecord({ version: 8, object, step: 0, sha256: sha(bytes), bytes: bytes.length });
    t.ok(isWeightTransportError(await errorFor(8)));
    await os.putBlob({ name: object }, bytes);
    await watcher.waitForVersion(8);
  });

  t.test('a payload holding a NaN (record, size and sha256 all consistent): the tensor and element are named', async (t) => {
    const w = smallWeights(9);
    w.get('layers.0.attention.wv.weight')![3] = NaN;
    const bytes = encodeSafetensors([...w].map(([n, data]) => [n, { shape: SMALL_SHAPES.get(n)!, data }]), {
      [WEIGHT_METADATA.version]: '9', [WEIGHT_METADATA.step]: '0', [WEIGHT_METADATA.configHash]: hash,
    });
    const object = 'policy/v9-nan';
    await os.putBlob({ name: object }, bytes);
    await putRecord({ version: 9, object, step: 0, sha256: sha(bytes), bytes: bytes.length });
    const err = await errorFor(9);
    t.ok(isNonFiniteWeightsError(err), `NonFiniteWeightsError: ${String(err)}`);
    t.match(err, { code: 'WEIGHT_CONTENT', version: 9, object, tensor: 'layers.0.attention.wv.weight', index: 3, message: /holds NaN at element 3/ });
  });

  t.test('an object bigger than this model\'s weights can be is refused before it is downloaded', async (t) => {
    const object = 'policy/v10-huge';
    const huge = new Uint8Array(maxPayloadBytes(SMALL_SHAPES) + 1);
    await os.putBlob({ name: object }, huge);
    await putRecord({ version: 10, object, step: 0, sha256: sha(huge), bytes: huge.length });
    const err = await errorFor(10);
    t.ok(isWeightContentError(err), String(err));
    t.match(err, { version: 10, object, message: new RegExp(`object is ${huge.length} bytes, weights of this model take at most ${huge.length - 1}: not downloaded`) });
    // A record that understates the size does not get around it: the stored size is checked as well.
    await putRecord({ version: 11, object, step: 0 });
    t.match(await errorFor(11), { version: 11, message: /not downloaded/ });
    await publisher.publish(smallWeights(12), { version: 12, step: 0 });
    await watcher.waitForVersion(12);
  });

  t.test('what the watcher did', async (t) => {
    t.same(applied, [1, 3, 7, 8, 12], 'only good versions, in order');
    const once = (v: number): number => errors.filter((e) => e.version === v).length;
    t.same([once(2), once(4), once(5), once(9), once(10), once(11)], [1, 1, 1, 1, 1, 1], 'content and integrity failures are not retried');
    t.ok(once(6) >= 1 && once(8) >= 1, 'transport failures are');
  });
});
