// The one structural validator of the project: message schemas, the cluster config and every options object.
// Each check reports the path of the offending field, the expected form and the value it got, so errors read like
// "config.roles.sandbox.concurrency: expected an integer >= 1, got -1". Why this and not a library: docs/configuration.md.

/** What is wrong at one path; `text` replaces the "expected …, got …" wording (unknown fields). */
export interface Issue {
  path: string;
  expected: string;
  got: unknown;
  text?: string;
}

export type Check<T> = {
  readonly kind: string;
  /** Returns null when `value` conforms, else what is wrong at `path` (or below it). */
  issue(value: unknown, path: string): Issue | null;
  /** Returns null when `value` conforms, else a message naming `path`. */
  check(value: unknown, path: string): string | null;
  readonly optional?: boolean;
  /** The fields of an object check (options resolution merges defaults into them). */
  readonly shape?: Readonly<Record<string, Check<unknown>>>;
  /** Phantom field carrying the validated type. */
  readonly _type?: T;
};

export type Infer<C> = C extends Check<infer T> ? T : never;

/** A short rendering of a value for messages. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value instanceof Uint8Array) return `bytes(${value.length})`;
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? `array(${value.length})` : 'object';
  return String(value);
}

export function formatIssue(i: Issue): string {
  return `${i.path}: ${i.text ?? `expected ${i.expected}, got ${show(i.got)}`}`;
}

function make<T>(kind: string, issue: (v: unknown, p: string) => Issue | null, extra: { optional?: boolean; shape?: Record<string, Check<unknown>> } = {}): Check<T> {
  return {
    kind,
    issue,
    check(v, p) {
      const i = issue(v, p);
      return i === null ? null : formatIssue(i);
    },
    ...extra,
  };
}

const fail = (path: string, expected: string, got: unknown): Issue => ({ path, expected, got });

export function string(opts: { min?: number; max?: number; pattern?: RegExp } = {}): Check<string> {
  const { min = 0, max = Infinity, pattern } = opts;
  const expected = `a string${pattern ? ` matching ${pattern}` : ''}${min > 0 ? ` of length >= ${min}` : ''}${max < Infinity ? ` of length <= ${max}` : ''}`;
  return make('string', (v, p) =>
    typeof v === 'string' && v.length >= min && v.length <= max && (!pattern || pattern.test(v)) ? null : fail(p, expected, v));
}

export interface NumberOptions {
  min?: number;
  max?: number;
  /** Exclusive bounds. */
  gt?: number;
  lt?: number;
  integer?: boolean;
  /** Accept ±Infinity (e.g. "no clipping"); NaN is never accepted. */
  infinite?: boolean;
}

export function number(opts: NumberOptions = {}): Check<number> {
  const { min = -Infinity, max = Infinity, gt, lt, integer = false, infinite = false } = opts;
  const bounds = [min > -Infinity ? `>= ${min}` : '', gt !== undefined ? `> ${gt}` : '', max < Infinity ? `<= ${max}` : '', lt !== undefined ? `< ${lt}` : '']
    .filter(Boolean).join(' and ');
  const expected = `${integer ? 'an integer' : infinite ? 'a number' : 'a finite number'}${bounds ? ` ${bounds}` : ''}`;
  return make('number', (v, p) =>
    typeof v === 'number' && (Number.isFinite(v) || (infinite && !Number.isNaN(v))) && (!integer || Number.isInteger(v)) && v >= min && v <= max &&
    (gt === undefined || v > gt) && (lt === undefined || v < lt)
      ? null
      : fail(p, expected, v));
}

export const int = (opts: { min?: number; max?: number } = {}): Check<number> => number({ ...opts, integer: true });

export function boolean(): Check<boolean> {
  return make('boolean', (v, p) => (typeof v === 'boolean' ? null : fail(p, 'true or false', v)));
}

export function bytes(opts: { max?: number } = {}): Check<Uint8Array> {
  const max = opts.max ?? Infinity;
  const expected = `bytes${max < Infinity ? ` (<= ${max})` : ''}`;
  return make('bytes', (v, p) => (v instanceof Uint8Array && v.length <= max ? null : fail(p, expected, v)));
}

export function literal<const L extends string | number | boolean>(...values: L[]): Check<L> {
  const expected = `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
  return make('literal', (v, p) => ((values as unknown[]).includes(v) ? null : fail(p, expected, v)));
}

export function unknownValue(): Check<unknown> {
  return make('unknown', () => null);
}

/** Absent: undefined or null. */
export function optional<T>(inner: Check<T>): Check<T | undefined> {
  return make(inner.kind, (v, p) => (v === undefined || v === null ? null : inner.issue(v, p)), { optional: true });
}

/** Present, and either null or `inner`. */
export function nullable<T>(inner: Check<T>): Check<T | null> {
  const i = inner;
  return make(inner.kind, (v, p) => {
    if (v === null) return null;
    const e = i.issue(v, p);
    return e && e.path === p ? { ...e, expected: `${e.expected} or null` } : e;
  });
}

export function array<T>(item: Check<T>, opts: { min?: number; max?: number } = {}): Check<T[]> {
  const { min = 0, max = Infinity } = opts;
  const expected = `an array${min > 0 ? ` of >= ${min} items` : ''}${max < Infinity ? ` of <= ${max} items` : ''}`;
  return make('array', (v, p) => {
    if (!Array.isArray(v) || v.length < min || v.length > max) return fail(p, expected, v);
    for (let i = 0; i < v.length; i++) {
      const e = item.issue(v[i], `${p}[${i}]`);
      if (e) return e;
    }
    return null;
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

export function record<T>(value: Check<T>): Check<Record<string, T>> {
  return make('record', (v, p) => {
    if (!isObject(v)) return fail(p, 'an object', v);
    for (const k in v) {
      const e = value.issue(v[k], `${p}.${k}`);
      if (e) return e;
    }
    return null;
  });
}

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
export type ObjectOf<S extends Shape> = { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };

/** An object with known fields; unknown fields are rejected when `strict` (configs, options), allowed otherwise (forward-compatible messages). */
export function object<S extends Shape>(shape: S, opts: { strict?: boolean } = {}): Check<ObjectOf<S>> {
  const keys = Object.keys(shape);
  const checks = keys.map((k) => shape[k]!);
  const strict = opts.strict === true;
  return make(
    'object',
    (v, p) => {
      if (!isObject(v)) return fail(p, 'an object', v);
      for (let i = 0; i < keys.length; i++) {
        const e = checks[i]!.issue(v[keys[i]!], `${p}.${keys[i]}`);
        if (e) return e;
      }
      if (strict) {
        for (const k in v)
          if (!(k in shape)) return { path: `${p}.${k}`, expected: `one of the known fields (${keys.join(', ')})`, got: k, text: `unknown field (known: ${keys.join(', ')})` };
      }
      return null;
    },
    { shape },
  );
}

/** Validates; returns the error message or null. */
export function validate<T>(schema: Check<T>, value: unknown, path: string): string | null {
  return schema.check(value, path);
}
