// Typed errors of weight sync (publisher and watcher): a refused version, an unreachable object, bytes that do
// not match their KV record, and contents that do not fit the model. Each carries the version and object name.
import { ModelError } from '../model/index.js';

export class WeightSyncError extends ModelError {}

export function isWeightSyncError(err: unknown): err is WeightSyncError {
  return err instanceof WeightSyncError;
}

/** publish() with a version that is not newer than the one in KV (also the loser of a compare-and-set race). */
export class StaleVersionError extends WeightSyncError {
  readonly current: number;
  readonly offered: number;
  constructor(current: number, offered: number) {
    super(`policy version ${offered} is not newer than the published ${current}: a version never goes backwards`, {
      code: 'WEIGHT_STALE_VERSION',
      data: { current, offered },
    });
    this.current = current;
    this.offered = offered;
  }
}

export function isStaleVersionError(err: unknown): err is StaleVersionError {
  return err instanceof StaleVersionError;
}

/** Where a weight-sync error happened: the policy version and object name it is about, when known. */
interface Where {
  version?: number;
  object?: string;
}

/** An error about one stored version or object: the message starts with where, and `version` / `object` say it. */
abstract class WeightObjectError extends WeightSyncError {
  readonly version: number | undefined;
  readonly object: string | undefined;
  constructor(message: string, code: string, where: Where, cause: unknown) {
    super(`${label(where)}${message}`, { code, cause, data: { ...where } });
    this.version = where.version;
    this.object = where.object;
  }
}

/** The KV bucket or object store is missing, did not answer, or lost the object. The watcher retries these. */
export class WeightTransportError extends WeightObjectError {
  constructor(detail: string, where: Where = {}, cause?: unknown) {
    super(detail, 'WEIGHT_TRANSPORT', where, cause);
  }
}

export function isWeightTransportError(err: unknown): err is WeightTransportError {
  return err instanceof WeightTransportError;
}

/** The stored bytes are not the ones the KV record describes (digest, sha256, size or version differ). */
export class WeightIntegrityError extends WeightObjectError {
  declare readonly version: number;
  declare readonly object: string;
  constructor(detail: string, where: Required<Where>, cause?: unknown) {
    super(`integrity check failed: ${detail}`, 'WEIGHT_INTEGRITY', where, cause);
  }
}

export function isWeightIntegrityError(err: unknown): err is WeightIntegrityError {
  return err instanceof WeightIntegrityError;
}

/**
 * The bytes are intact but do not fit this model: not safetensors, another model config, or a tensor whose name,
 * shape or dtype differs (`tensor` names it; `cause` is the checkpoint error that found it).
 */
export class WeightContentError extends WeightObjectError {
  readonly tensor: string | undefined;
  constructor(detail: string, where: Where & { tensor?: string }, cause?: unknown) {
    super(detail, 'WEIGHT_CONTENT', where, cause);
    this.tensor = where.tensor;
  }
}

export function isWeightContentError(err: unknown): err is WeightContentError {
  return err instanceof WeightContentError;
}

/**
 * Weights holding a NaN or an infinity: refused by the publisher before anything is uploaded (a learner that
 * diverged stops rather than publish them) and by the watcher before anything is handed on.
 */
export class NonFiniteWeightsError extends WeightContentError {
  readonly index: number;
  readonly value: number;
  constructor(detail: string, where: { version?: number; object?: string; tensor: string; index: number; value: number }, cause?: unknown) {
    super(detail, { version: where.version, object: where.object, tensor: where.tensor }, cause);
    this.index = where.index;
    this.value = where.value;
  }
}

export function isNonFiniteWeightsError(err: unknown): err is NonFiniteWeightsError {
  return err instanceof NonFiniteWeightsError;
}

function label(where: Where): string {
  const parts = [where.version === undefined ? '' : `version ${where.version}`, where.object === undefined ? '' : `object ${where.object}`];
  const s = parts.filter(Boolean).join(', ');
  return s ? `${s}: ` : '';
}
