// Pushed weights are checked as soon as their bytes are complete, before the KV record names them (checkEarly), and
// that changes only when the checks run, not what they let through: good bytes are applied bit-exact once the record
// matches, and bytes whose sha256 matches the record but which hold a NaN are refused with the same
// NonFiniteWeightsError a download gets, naming the version, object and tensor; nothing is applied.
import t from 'tap';
import { createHash } from 'node:crypto';
import { POLICY_KEY, WeightWatcher, configHash, encodeWeightPayload, isNonFiniteWeightsError, openWeightStores, pushLive } from '../../weight-sync/index.js';
import type { Weights } from '../../model/session.js';
import { PolicyVersion } from '../../runtime/message-types.js';
import { encode } from '../../runtime/messages.js';
import { SMALL_CONFIG, SMALL_SHAPES, sameBits, signal, smallWeights, twoConnections } from './setup.js';

t.setTimeout(30_000);

/** The payload of `version` with its first tensor's first value replaced by a NaN (bytes a broken publisher could send). */
function withNaN(version: number): Uint8Array {
  const bytes = encodeWeightPayload(smallWeights(version), { version, step: version, configHash: configHash(SMALL_CONFIG) }, SMALL_SHAPES);
  const headerLength = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(Buffer.from(bytes.subarray(8, 8 + headerLength)).toString()) as Record<string, { data_offsets?: [number, number] }>;
  const first = Object.values(header).find((e) => e.data_offsets !== undefined)!;
  new DataView(bytes.buffer, bytes.byteOffset + 8 + headerLength + first.data_offsets![0]).setFloat32(0, NaN, true);
  return bytes;
}

t.test('early checks let through what the checks after the record would, nothing more', async (t) => {
  const { learner, sampler } = await twoConnections(t);
  const got = new Map<number, Weights>();
  const errors: unknown[] = [];
  let refused = signal<unknown>();
  const watcher = await WeightWatcher.start(sampler, {
    shapes: SMALL_SHAPES, modelConfig: SMALL_CONFIG, onWeights: (w, v) => void got.set(v, w), onError: (err) => (errors.push(err), refused.resolve(err)),
  });
  t.teardown(() => watcher.stop());
  const { kv, os } = await openWeightStores(learner);
  const hash = configHash(SMALL_CONFIG);
  /** Stores and pushes `bytes` as `version`; once every chunk reached the watcher, writes the record naming them. */
  const publish = async (version: number, bytes: Uint8Array): Promise<void> => {
    const object = `policy/v${version}-by-hand`;
    await os.putBlob({ name: object }, bytes);
    pushLive(learner.nc, object, bytes, 1024);
    await learner.nc.flush();
    await sampler.nc.flush(); // the chunks are in: the check runs before the record below arrives
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await kv.put(POLICY_KEY, encode(PolicyVersion, { version, object, step: version, ts: Date.now(), sha256, bytes: bytes.length, configHash: hash }));
  };

  await publish(1, encodeWeightPayload(smallWeights(1), { version: 1, step: 1, configHash: hash }, SMALL_SHAPES));
  await watcher.waitForVersion(1);
  t.ok(sameBits(got.get(1)!, smallWeights(1)), 'good bytes applied bit-exact');
  t.equal(watcher.earlyChecks, 1, 'checked before the record came');
  t.match(watcher.liveStats, { used: 1, missed: 0 }, 'from the push');

  refused = signal<unknown>();
  await publish(2, withNaN(2));
  const err = await refused.promise;
  t.ok(isNonFiniteWeightsError(err), 'a NaN whose bytes match the record is refused: NonFiniteWeightsError');
  t.match(err, { version: 2, object: 'policy/v2-by-hand' }, 'naming the version and object');
  t.type((err as { tensor?: unknown }).tensor, 'string', 'and the tensor');
  t.equal(watcher.earlyChecks, 2, 'it too was checked early');
  t.notOk(got.has(2), 'nothing applied');
  t.equal(watcher.version, 1, 'the watcher stays at version 1');
});
