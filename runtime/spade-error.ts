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

/** An error class built as `new X(message, where, cause?)`, whose `where` is kept under the key `K`. */
export type LocatedErrorClass<T extends SpadeError, K extends string> = new (message: string, where: string, cause?: unknown) => T & { readonly [P in K]: string };

/**
 * An error about one place (a path, a directory, a file, an address), kept as a property and as data under `key`.
 * `export class SuiteError extends located(EvalError, 'EVAL_SUITE', 'dir') {}` is built as `new SuiteError(message, dir, cause?)`.
 */
export function located<T extends SpadeError, K extends string>(Base: SpadeErrorClass<T>, code: string, key: K): LocatedErrorClass<T, K> {
  const B = Base as unknown as new (message: string, opts: SpadeErrorOptions) => SpadeError;
  class Located extends B {
    constructor(message: string, where: string, cause?: unknown) {
      super(message, { code, data: { [key]: where }, cause });
      (this as unknown as Record<string, string>)[key] = where;
    }
  }
  return Located as unknown as LocatedErrorClass<T, K>;
}

/** An error class built as `new X(field, expected, value)`, for a bad option or argument named by `field`. */
export type FieldErrorClass<T extends SpadeError> = new (field: string, expected: string, value: unknown) => T & FieldErrorFields;

export interface FieldErrorFields {
  readonly field: string;
  readonly expected: string;
  readonly value: unknown;
}

/** How a field error words itself, where an area's differs from the default. */
export interface FieldErrorFormat {
  /** The field as the message names it (default: as given). */
  name?: (field: string) => string;
  /** The bad value as the message shows it (default: its JSON, or String() where it has none). */
  show?: (value: unknown) => string;
  /** The error's data beside `field` (default: none). */
  data?: (expected: string, value: unknown) => Record<string, unknown>;
}

const showValue = (v: unknown): string => JSON.stringify(v) ?? String(v);

/**
 * A bad option or argument of an area, worded `<field> must be <expected> (got <value>)`, with data `{ field }`.
 * `export class EvalOptionsError extends fieldError(EvalError, 'EVAL_OPTIONS') {}` is an EvalError named
 * EvalOptionsError with code EVAL_OPTIONS.
 */
export function fieldError<T extends SpadeError>(Base: SpadeErrorClass<T>, code: string, format: FieldErrorFormat = {}): FieldErrorClass<T> {
  const B = Base as unknown as new (message: string, opts: SpadeErrorOptions) => SpadeError;
  const { name = (f: string) => f, show = showValue, data = () => ({}) } = format;
  class Field extends B {
    constructor(readonly field: string, readonly expected: string, readonly value: unknown) {
      super(`${name(field)} must be ${expected} (got ${show(value)})`, { code, data: { field, ...data(expected, value) } });
    }
  }
  return Field as unknown as FieldErrorClass<T>;
}

/** The `isX(err)` helper of an error class. */
export function guard<T extends Error>(C: abstract new (...args: never[]) => T): (err: unknown) => err is T {
  return (err: unknown): err is T => err instanceof C;
}
