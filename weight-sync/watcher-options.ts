// The options of a weight watcher (weight-sync/watcher.ts): what each one does, its default, and the check that
// names a bad one.
import type { ShapeTable, Weights } from '../model/index.js';
import { ModelOptionError } from '../model/index.js';
import type { PolicyRecord } from './store.js';

export interface WeightWatcherOptions {
  /** The model's parameter table (e.g. parameterShapes(config)); every received tensor must match it. */
  shapes: ShapeTable;
  /** Receives each applied version, in strictly increasing order; the next one waits until it returns. */
  onWeights: (weights: Weights, version: number, record: PolicyRecord) => void | Promise<void>;
  /** Array type of the delivered weights (the sampler session's dtype). */
  dtype?: 'float32' | 'float64';
  /** When given, weights published for another model config are refused. */
  modelConfig?: object | null;
  /** Versions at or below this one are ignored (the version the consumer already runs). */
  fromVersion?: number;
  /** Failed downloads, refused weights and onWeights errors land here; the default logs one line. */
  onError?: (err: unknown, record?: PolicyRecord) => void;
  /** Called for every newer record as soon as KV announces it, before the download. */
  onSeen?: (record: PolicyRecord) => void;
  /** Transport failures (object missing, timeouts) are retried this many times, this far apart, unless a newer version arrives. */
  maxRetries?: number;
  retryDelayMs?: number;
  /** A download that makes no progress for this long is abandoned (and retried). */
  downloadTimeoutMs?: number;
  /**
   * Take the bytes the publisher pushes over core NATS (weight-sync/live.ts) when the connection has `nc`, checked
   * against the record's size and sha256 before the usual payload checks; else, or when they are missing or differ,
   * download. `liveWaitMs`: how long to wait for a push still arriving when the record is already there.
   */
  live?: boolean;
  liveWaitMs?: number;
  /**
   * With `live`, check pushed bytes as soon as they are complete (sha256 and every payload check, weight-sync/early-check.ts),
   * while the publisher still uploads; the record then only has to match. Off: the same checks once the record is in.
   */
  checkEarly?: boolean;
  /**
   * With `live` and `checkEarly`: apply weights a publisher in this process hands over as soon as their payload
   * checks pass, before the upload ends and the KV record names them. The record then confirms them (its sha256 and
   * size must match; a mismatch is reported as a WeightIntegrityError). A version handed over in a process counts
   * as taken there even if its upload fails (live.ts), so no other weights are published under it from that process.
   */
  applyHandedOver?: boolean;
}

export const DEFAULT_WEIGHT_WATCHER_OPTIONS = {
  dtype: 'float32' as const, modelConfig: null, fromVersion: -1, maxRetries: 3, retryDelayMs: 1000, downloadTimeoutMs: 60_000, live: true, liveWaitMs: 500, checkEarly: true, applyHandedOver: true,
  onError: (err: unknown): void => console.warn(`[weight-watcher] ${err instanceof Error ? err.message : String(err)}`),
};

export type ResolvedWatcherOptions = Required<Omit<WeightWatcherOptions, 'onSeen'>> & Pick<WeightWatcherOptions, 'onSeen'>;

export function validateWeightWatcherOptions(o: WeightWatcherOptions): ResolvedWatcherOptions {
  const r = { ...DEFAULT_WEIGHT_WATCHER_OPTIONS, ...o };
  if (r.shapes === null || typeof r.shapes !== 'object') throw new ModelOptionError('shapes', 'a parameter table (Map or record of name -> shape)', r.shapes);
  for (const f of ['onWeights', 'onError'] as const) if (typeof r[f] !== 'function') throw new ModelOptionError(f, 'a function', r[f]);
  if (r.onSeen !== undefined && typeof r.onSeen !== 'function') throw new ModelOptionError('onSeen', 'a function', r.onSeen);
  if (r.dtype !== 'float32' && r.dtype !== 'float64') throw new ModelOptionError('dtype', '"float32" or "float64"', r.dtype);
  if (r.modelConfig !== null && (typeof r.modelConfig !== 'object' || Array.isArray(r.modelConfig))) throw new ModelOptionError('modelConfig', 'an object or null', r.modelConfig);
  if (!Number.isInteger(r.fromVersion) || r.fromVersion < -1) throw new ModelOptionError('fromVersion', 'an integer >= -1', r.fromVersion);
  if (!Number.isInteger(r.maxRetries) || r.maxRetries < 0) throw new ModelOptionError('maxRetries', 'an integer >= 0', r.maxRetries);
  for (const f of ['live', 'checkEarly', 'applyHandedOver'] as const) if (typeof r[f] !== 'boolean') throw new ModelOptionError(f, 'true or false', r[f]);
  if (!Number.isInteger(r.liveWaitMs) || r.liveWaitMs < 0) throw new ModelOptionError('liveWaitMs', 'an integer >= 0 (ms)', r.liveWaitMs);
  for (const f of ['retryDelayMs', 'downloadTimeoutMs'] as const) if (!Number.isInteger(r[f]) || r[f] < 1) throw new ModelOptionError(f, 'a positive integer (ms)', r[f]);
  return r;
}
