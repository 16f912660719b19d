// Typed errors of the model engine: one base (ModelError) and a subtree per concern
// (tokenizer, optimizer, checkpoint, execution provider), each with an isX() helper.
import { SpadeError, fieldError } from '../runtime/spade-error.js';

export interface ModelErrorOptions {
  code: string;
  cause?: unknown;
  data?: Record<string, unknown>;
}

/** Root of every error the model engine throws. */
export class ModelError extends SpadeError {
  constructor(message: string, opts: ModelErrorOptions) {
    super(message, opts);
  }
}

export function isModelError(err: unknown): err is ModelError {
  return err instanceof ModelError;
}

/** A bad option value: the message names the field and what was expected. */
export class ModelOptionError extends fieldError(ModelError, 'MODEL_OPTION', { name: (f) => `options.${f}`, show: describe, data: (expected) => ({ expected }) }) {
  /** The bad value (the name this class had for it before `value`). */
  get actual(): unknown {
    return this.value;
  }
}

export function isModelOptionError(err: unknown): err is ModelOptionError {
  return err instanceof ModelOptionError;
}

// ---------------------------------------------------------------- tokenizer

export class TokenizerError extends ModelError {}

export function isTokenizerError(err: unknown): err is TokenizerError {
  return err instanceof TokenizerError;
}

// ---------------------------------------------------------------- optimizer

export class OptimizerError extends ModelError {}

export function isOptimizerError(err: unknown): err is OptimizerError {
  return err instanceof OptimizerError;
}

// ---------------------------------------------------------------- checkpoints

/** Base of everything that can go wrong reading or writing a checkpoint or a safetensors file. */
export class CheckpointError extends ModelError {
  /** File the problem was found in, when known. */
  readonly file: string | undefined;
  constructor(message: string, opts: ModelErrorOptions & { file?: string }) {
    super(opts.file === undefined ? message : `${opts.file}: ${message}`, {
      ...opts,
      data: { ...opts.data, file: opts.file },
    });
    this.file = opts.file;
  }
}

export function isCheckpointError(err: unknown): err is CheckpointError {
  return err instanceof CheckpointError;
}

/** The file ends before the length its header promises. */
export class TruncatedFileError extends CheckpointError {
  constructor(detail: string, file?: string) {
    super(`truncated file: ${detail}`, { code: 'CHECKPOINT_TRUNCATED', file });
  }
}

/** The bytes are not a valid safetensors / JSON file (bad header, overlapping or holey offsets, ...). */
export class CorruptFileError extends CheckpointError {
  constructor(detail: string, file?: string, cause?: unknown) {
    super(`corrupt file: ${detail}`, { code: 'CHECKPOINT_CORRUPT', file, cause });
  }
}

/** The header length field asks for more than MAX_SAFETENSORS_HEADER_BYTES: refused before anything is parsed. */
export class OversizeHeaderError extends CorruptFileError {
  readonly headerBytes: bigint;
  readonly limit: number;
  constructor(headerBytes: bigint, limit: number, file?: string) {
    super(`header length ${headerBytes} exceeds the ${limit}-byte limit`, file);
    this.headerBytes = headerBytes;
    this.limit = limit;
  }
}

/** A tensor holds a NaN or an infinity (first offending element named): such weights are never used. */
export class NonFiniteTensorError extends CheckpointError {
  readonly tensor: string;
  readonly index: number;
  readonly value: number;
  constructor(tensor: string, index: number, value: number, file?: string) {
    super(`tensor "${tensor}" holds ${value} at element ${index}: weights must be finite`, {
      code: 'CHECKPOINT_NONFINITE',
      file,
      data: { tensor, index, value: String(value) },
    });
    this.tensor = tensor;
    this.index = index;
    this.value = value;
  }
}

export function isNonFiniteTensorError(err: unknown): err is NonFiniteTensorError {
  return err instanceof NonFiniteTensorError;
}

/** A tensor the expected shape table names is absent from the file. */
export class MissingTensorError extends CheckpointError {
  readonly tensor: string;
  constructor(tensor: string, file?: string) {
    super(`missing tensor "${tensor}"`, { code: 'CHECKPOINT_MISSING_TENSOR', file, data: { tensor } });
    this.tensor = tensor;
  }
}

/** The file holds a tensor the expected shape table does not name. */
export class UnexpectedTensorError extends CheckpointError {
  readonly tensor: string;
  constructor(tensor: string, file?: string) {
    super(`unexpected tensor "${tensor}" (not in the model's parameter table)`, {
      code: 'CHECKPOINT_UNEXPECTED_TENSOR',
      file,
      data: { tensor },
    });
    this.tensor = tensor;
  }
}

export class ShapeMismatchError extends CheckpointError {
  readonly tensor: string;
  readonly expected: readonly number[];
  readonly actual: readonly number[];
  constructor(tensor: string, expected: readonly number[], actual: readonly number[], file?: string) {
    super(`tensor "${tensor}" has shape [${actual.join(', ')}], expected [${expected.join(', ')}]`, {
      code: 'CHECKPOINT_SHAPE_MISMATCH',
      file,
      data: { tensor, expected: [...expected], actual: [...actual] },
    });
    this.tensor = tensor;
    this.expected = expected;
    this.actual = actual;
  }
}

export class DtypeMismatchError extends CheckpointError {
  readonly tensor: string;
  readonly expected: readonly string[];
  readonly actual: string;
  constructor(tensor: string, expected: readonly string[], actual: string, file?: string) {
    super(`tensor "${tensor}" has dtype ${actual}, expected ${expected.join(' or ')}`, {
      code: 'CHECKPOINT_DTYPE_MISMATCH',
      file,
      data: { tensor, expected: [...expected], actual },
    });
    this.tensor = tensor;
    this.expected = expected;
    this.actual = actual;
  }
}

/** config.json / optimizer.json is missing, unreadable or of the wrong format. */
export class CheckpointConfigError extends CheckpointError {
  readonly field: string | undefined;
  constructor(detail: string, file?: string, field?: string, cause?: unknown) {
    super(detail, { code: 'CHECKPOINT_CONFIG', file, cause, data: { field } });
    this.field = field;
  }
}

/**
 * A Hugging Face model directory whose config asks for something the engine does not compute (a model type,
 * activation, rope scaling or bias it lacks): refused at load, naming the config field or tensor.
 */
export class UnsupportedModelError extends CheckpointError {
  readonly field: string;
  constructor(field: string, detail: string, file = 'config.json') {
    super(`unsupported ${field}: ${detail}`, { code: 'CHECKPOINT_UNSUPPORTED', file, data: { field } });
    this.field = field;
  }
}

export function isUnsupportedModelError(err: unknown): err is UnsupportedModelError {
  return err instanceof UnsupportedModelError;
}

// ---------------------------------------------------------------- execution providers

export class ProviderError extends ModelError {
  /** The provider that was asked for. */
  readonly provider: string;
  /** Providers that this onnxruntime-node build reports as usable here. */
  readonly available: readonly string[];
  constructor(message: string, provider: string, available: readonly string[], code: string, cause?: unknown) {
    super(message, { code, cause, data: { provider, available: [...available] } });
    this.provider = provider;
    this.available = available;
  }
}

export function isProviderError(err: unknown): err is ProviderError {
  return err instanceof ProviderError;
}

/** The name is unknown, or this onnxruntime-node build does not ship the provider. */
export class ProviderUnavailableError extends ProviderError {
  constructor(provider: string, available: readonly string[], reason: string) {
    super(
      `execution provider "${provider}" is not available: ${reason}; available: ${available.join(', ')}`,
      provider,
      available,
      'PROVIDER_UNAVAILABLE',
    );
  }
}

/** The provider is shipped but could not start a session on this machine (no driver, no adapter, ...). */
export class ProviderInitError extends ProviderError {
  constructor(provider: string, available: readonly string[], reason: string, cause: unknown) {
    const others = available.filter((p) => p !== provider);
    super(
      `execution provider "${provider}" failed to start: ${reason}; other available providers: ${others.join(', ') || 'none'}`,
      provider,
      available,
      'PROVIDER_INIT',
      cause,
    );
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return 'a function';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
