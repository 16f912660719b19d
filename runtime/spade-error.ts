// The root of every typed error in the project: each area's errors.ts extends it.
export interface SpadeErrorOptions {
  code: string;
  cause?: unknown;
  data?: Record<string, unknown>;
}

export class SpadeError extends Error {
  readonly code: string;
  readonly data: Record<string, unknown>;
  constructor(message: string, opts: SpadeErrorOptions) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code;
    this.data = opts.data ?? {};
  }
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, ...this.data };
  }
}

export function isSpadeError(err: unknown): err is SpadeError {
  return err instanceof SpadeError;
}

type SpadeErrorClass<T extends SpadeError> = abstract new (message: string, opts: SpadeErrorOptions) => T;

/** An error class built as `new X(message, data?, cause?)`, whose code is fixed. */
export type CodedErrorClass<T extends SpadeError> = new (message: string, data?: Record<string, unknown>, cause?: unknown) => T;

/**
 * The common error of an area: a message, some context and maybe a cause, under one fixed code.
 * `export class HostError extends coded(RuntimeError, 'HOST') {}` is a RuntimeError named HostError with code HOST.
 */
export function coded<T extends SpadeError>(Base: SpadeErrorClass<T>, code: string): CodedErrorClass<T> {
  const B = Base as unknown as new (message: string, opts: SpadeErrorOptions) => SpadeError;
  class Coded extends B {
    constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
      super(message, { code, data, cause });
    }
  }
  return Coded as unknown as CodedErrorClass<T>;
}

/** The `isX(err)` helper of an error class. */
export function guard<T extends Error>(C: abstract new (...args: never[]) => T): (err: unknown) => err is T {
  return (err: unknown): err is T => err instanceof C;
}
