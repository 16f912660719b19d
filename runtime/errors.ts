// Typed errors of the cluster runtime: config, messages, topology, embedded server, actor host.
// A bad config value is an OptionsError (runtime/options.ts); ConfigError is a config that cannot be assembled.
import { coded, guard, SpadeError } from './spade-error.js';

export class RuntimeError extends SpadeError {}

/** The config cannot be assembled (unloadable --config file, malformed --set, unknown role); `field` says where. */
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

/** Streams, consumers or buckets could not be declared as the config asks. */
export class TopologyError extends coded(RuntimeError, 'TOPOLOGY') {}

/** `nats-server` could not be found or started for the embedded default. */
export class NatsServerError extends coded(RuntimeError, 'NATS_SERVER') {}

/** The actor host was misused or an actor broke its contract. */
export class HostError extends coded(RuntimeError, 'HOST') {}

/** Thrown by a handler for work that must not be retried: goes to the dead-letter subject at once. */
export class PermanentError extends coded(RuntimeError, 'PERMANENT') {}

/** Credentials that cannot be used: missing, unreadable, malformed or readable by other users (`path` names the file), or refused by the server. */
export class AuthError extends coded(RuntimeError, 'AUTH') {}

/** The server refused this user an operation (a NATS permissions violation): names the role, the operation and the subject. */
export class PermissionError extends RuntimeError {
  constructor(readonly role: string, readonly operation: string, readonly subject: string, cause?: unknown) {
    super(`role ${role} may not ${operation === 'subscription' ? 'subscribe to' : 'publish to'} ${subject} (the server refused it: a permissions violation; docs/security.md lists what each role may do)`, {
      code: 'PERMISSION_DENIED', cause, data: { role, operation, subject },
    });
  }
}

/** A driven logic's effect failed with something that is not an Error (runtime/logic-driver.ts); `thrown` is what it threw. */
export class EffectError extends coded(RuntimeError, 'EFFECT') {}

/**
 * A timer of the runtime (`delay.ts`, `beat.ts`, `retry.ts`) was given a bad interval, a beat's tick failed, or a stop
 * ended retries; `what` names the wait, the beat or the call, and `cause` is the failure behind it.
 */
export class TimerError extends coded(RuntimeError, 'TIMER') {}

/** A restart policy (`supervise.ts`) was given a bad option, or a restart failed with something that is not an Error; `what` names what is supervised. */
export class SupervisorError extends coded(RuntimeError, 'SUPERVISOR') {}

export class UsageError extends RuntimeError {
  constructor(message: string) {
    super(message, { code: 'USAGE' });
  }
}

export const isConfigError = guard(ConfigError);
export const isMessageError = guard(MessageError);
export const isPermanentError = guard(PermanentError);
export const isNatsServerError = guard(NatsServerError);
export const isEffectError = guard(EffectError);
export const isTimerError = guard(TimerError);
export const isSupervisorError = guard(SupervisorError);
export const isUsageError = guard(UsageError);
export const isAuthError = guard(AuthError);
export const isPermissionError = guard(PermissionError);
