// Typed errors of the cluster runtime: config, messages, topology, embedded server, actor host.
import { SpadeError } from './spade-error.js';

export class RuntimeError extends SpadeError {}

/** A config value is wrong; `field` is its dotted path (e.g. `roles.sandbox.concurrency`). */
export class ConfigError extends RuntimeError {
  constructor(readonly field: string, message: string, cause?: unknown) {
    super(`invalid config: ${message}`, { code: 'CONFIG_INVALID', cause, data: { field } });
  }
}

/** Bytes on a subject that are not a valid SPADE message. Carries the reason and the subject. */
export class MessageError extends RuntimeError {
  constructor(
    readonly reason: 'decode' | 'envelope' | 'unknown-type' | 'version' | 'schema' | 'encode',
    message: string,
    data: Record<string, unknown> = {},
    cause?: unknown,
  ) {
    super(message, { code: `MESSAGE_${reason.toUpperCase().replace('-', '_')}`, cause, data: { reason, ...data } });
  }
}

export class TopologyError extends RuntimeError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'TOPOLOGY', cause, data });
  }
}

/** `nats-server` could not be found or started for the embedded default. */
export class NatsServerError extends RuntimeError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'NATS_SERVER', cause, data });
  }
}

export class HostError extends RuntimeError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'HOST', cause, data });
  }
}

/** Thrown by a handler for work that must not be retried: goes to the dead-letter subject at once. */
export class PermanentError extends RuntimeError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'PERMANENT', cause, data });
  }
}

export class UsageError extends RuntimeError {
  constructor(message: string) {
    super(message, { code: 'USAGE' });
  }
}

export const isConfigError = (e: unknown): e is ConfigError => e instanceof ConfigError;
export const isMessageError = (e: unknown): e is MessageError => e instanceof MessageError;
export const isPermanentError = (e: unknown): e is PermanentError => e instanceof PermanentError;
export const isNatsServerError = (e: unknown): e is NatsServerError => e instanceof NatsServerError;
export const isUsageError = (e: unknown): e is UsageError => e instanceof UsageError;
