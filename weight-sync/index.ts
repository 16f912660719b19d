// Weight sync over JetStream: the public entry (publisher, watcher, payload, errors) and the glue that feeds a
// watcher into a Sampler, whose setWeights() swaps between decode steps so no request in flight is dropped.
import type { Sampler } from '../model/sampler/index.js';
import { WeightWatcher } from './watcher.js';
import type { WeightWatcherOptions } from './watcher-options.js';
import type { WeightSyncConnection } from './store.js';

export * from './errors.js';
export { WeightPublisher, DEFAULT_WEIGHT_PUBLISHER_OPTIONS, validateWeightPublisherOptions, type WeightPublisherOptions, type PublishInfo, type PublishResult } from './publisher.js';
export { WeightWatcher, WatcherStoppedError } from './watcher.js';
export { DEFAULT_WEIGHT_WATCHER_OPTIONS, validateWeightWatcherOptions, type WeightWatcherOptions } from './watcher-options.js';
export { POLICY_KEY, OBJECT_PREFIX, openWeightStores, readPolicyRecord, downloadRecord, checkRecordBytes, isWrongLastSequence, type PolicyRecord, type WeightSyncConnection } from './store.js';
export { pushLive, handOffLocal, uncommittedHandOff, LiveReceiver, LIVE_HEADERS, type LiveStats } from './live.js';
export { configHash, encodeWeightPayload, decodeWeightPayload, maxPayloadBytes, sha256Hex, WEIGHT_METADATA, type PayloadInfo, type DecodedPayload } from './payload.js';

/** The part of a Sampler the glue uses. */
export type WeightSink = Pick<Sampler, 'setWeights' | 'policyVersion'>;

/**
 * Starts a watcher that hands every newer published version to `sampler.setWeights`, starting above the version
 * the sampler already runs. A version the sampler already passed (set locally meanwhile) is skipped, not an error.
 */
export function watchIntoSampler(
  conn: WeightSyncConnection, sampler: WeightSink, options: Omit<WeightWatcherOptions, 'onWeights' | 'fromVersion'>,
): Promise<WeightWatcher> {
  return WeightWatcher.start(conn, {
    ...options,
    fromVersion: sampler.policyVersion,
    onWeights: (weights, version) => {
      if (version > sampler.policyVersion) sampler.setWeights(weights, version);
    },
  });
}
