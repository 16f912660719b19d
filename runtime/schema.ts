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
  /**
   * Returns null when `value` conforms, else what is wrong, its `path` relative to `value` (e.g. ".a[1].b"): paths are
   * built only on failure, so a conforming message costs no string work (see bench:schema).
   */
  at(value: unknown): Issue | null;
  /** Returns null when `value` conforms, else what is wrong at `path` (or below it). */
  issue(value: unknown, path: string): Issue | null;
  /** Returns null when `value` conforms, else a message naming `path`. */
  check(value: unknown, path: string): string | null;
  readonly optional?: boolean;
  /** The fields of an object check (options resolution merges defaults into them). */
  readonly shape?: Readonly<Record<string, Check<unknown>>>;
  /** What the check accepts, for tools that walk a schema (test/runtime/bad-config-fails-naming-the-field-walk). */
  readonly meta: CheckMeta;
  /** Phantom field carrying the validated type. */
  readonly _type?: T;
};

/** The parameters a check was built with: bounds (a number's, or a string's length), pattern, allowed values, and the checks it is made of. */
export interface CheckMeta extends NumberOptions {
  pattern?: RegExp;
  values?: readonly unknown[];
  /** array: the item check; record: the value check; optional / nullable: the wrapped check. */
  item?: Check<unknown>;
  value?: Check<unknown>;
  inner?: Check<unknown>;
  wrapper?: 'optional' | 'nullable';
  /** object: its fields (also when `replace` leaves `shape` out) and whether unknown fields are refused. */
  fields?: Readonly<Record<string, Check<unknown>>>;
  strict?: boolean;
}

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

function make<T>(kind: string, at: (v: unknown) => Issue | null, extra: { optional?: boolean; shape?: Record<string, Check<unknown>>; meta?: CheckMeta } = {}): Check<T> {
  const issue = (v: unknown, p: string): Issue | null => {
    const i = at(v);
    return i === null ? null : { ...i, path: p + i.path };
  };
  // Every check has the same fields in the same order, so the parents' `.at` loads stay monomorphic.
  return {
    kind,
    at,
    issue,
    check(v, p) {
      const i = issue(v, p);
      return i === null ? null : formatIssue(i);
    },
    optional: extra.optional ?? false,
    shape: extra.shape,
    meta: extra.meta ?? {},
  };
}

/** An issue at the value itself (relative path ""); parents prefix their key on the way up. */
const fail = (expected: string, got: unknown): Issue => ({ path: '', expected, got });

function under(prefix: string, i: Issue): Issue {
  i.path = prefix + i.path;
  return i;
}

export function string(opts: { min?: number; max?: number; pattern?: RegExp } = {}): Check<string> {
  const { min = 0, max = Infinity, pattern } = opts;
  const expected = `a string${pattern ? ` matching ${pattern}` : ''}${min > 0 ? ` of length >= ${min}` : ''}${max < Infinity ? ` of length <= ${max}` : ''}`;
  return make('string', (v) =>
    typeof v === 'string' && v.length >= min && v.length <= max && (!pattern || pattern.test(v)) ? null : fail(expected, v), { meta: { min, max, pattern } });
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
  return make('number', (v) =>
    typeof v === 'number' && (Number.isFinite(v) || (infinite && !Number.isNaN(v))) && (!integer || Number.isInteger(v)) && v >= min && v <= max &&
    (gt === undefined || v > gt) && (lt === undefined || v < lt)
      ? null
      : fail(expected, v), { meta: { min, max, gt, lt, integer, infinite } });
}

export const int = (opts: { min?: number; max?: number } = {}): Check<number> => number({ ...opts, integer: true });

export function boolean(): Check<boolean> {
  return make('boolean', (v) => (typeof v === 'boolean' ? null : fail('true or false', v)));
}

export function bytes(opts: { max?: number } = {}): Check<Uint8Array> {
  const max = opts.max ?? Infinity;
  const expected = `bytes${max < Infinity ? ` (<= ${max})` : ''}`;
  return make('bytes', (v) => (v instanceof Uint8Array && v.length <= max ? null : fail(expected, v)));
}

export function literal<const L extends string | number | boolean>(...values: L[]): Check<L> {
  const expected = `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
  return make('literal', (v) => ((values as unknown[]).includes(v) ? null : fail(expected, v)), { meta: { values } });
}

export function unknownValue(): Check<unknown> {
  return make('unknown', () => null);
}

/** Absent: undefined or null. */
export function optional<T>(inner: Check<T>): Check<T | undefined> {
  return make(inner.kind, (v) => (v === undefined || v === null ? null : inner.at(v)), { optional: true, meta: { inner: inner as Check<unknown>, wrapper: 'optional' } });
}

/** Present, and either null or `inner`. */
export function nullable<T>(inner: Check<T>): Check<T | null> {
  return make(inner.kind, (v) => {
    if (v === null) return null;
    const e = inner.at(v);
    return e && e.path === '' ? { ...e, expected: `${e.expected} or null` } : e;
  }, { meta: { inner: inner as Check<unknown>, wrapper: 'nullable' } });
}

export function array<T>(item: Check<T>, opts: { min?: number; max?: number } = {}): Check<T[]> {
  const { min = 0, max = Infinity } = opts;
  const expected = `an array${min > 0 ? ` of >= ${min} items` : ''}${max < Infinity ? ` of <= ${max} items` : ''}`;
  return make('array', (v) => {
    if (!Array.isArray(v) || v.length < min || v.length > max) return fail(expected, v);
    for (let i = 0; i < v.length; i++) {
      const e = item.at(v[i]);
      if (e) return under(`[${i}]`, e);
    }
    return null;
  }, { meta: { min, max, item: item as Check<unknown> } });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

export function record<T>(value: Check<T>): Check<Record<string, T>> {
  return make('record', (v) => {
    if (!isObject(v)) return fail('an object', v);
    for (const k in v) {
      const e = value.at(v[k]);
      if (e) return under(`.${k}`, e);
    }
    return null;
  }, { meta: { value: value as Check<unknown> } });
}

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
export type ObjectOf<S extends Shape> = { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };

/**
 * An object with known fields; unknown fields are rejected when `strict` (configs, options), allowed otherwise
 * (forward-compatible messages). With `replace`, options resolution takes a given value whole instead of merging it
 * field by field over the defaults (the form of options whose defaults belong to another module).
 */
export function object<S extends Shape>(shape: S, opts: { strict?: boolean; replace?: boolean } = {}): Check<ObjectOf<S>> {
  const keys = Object.keys(shape);
  const checks = keys.map((k) => shape[k]!);
  const strict = opts.strict === true;
  return make(
    'object',
    (v) => {
      if (!isObject(v)) return fail('an object', v);
      for (let i = 0; i < keys.length; i++) {
        const e = checks[i]!.at(v[keys[i]!]);
        if (e) return under(`.${keys[i]}`, e);
      }
      if (strict) {
        for (const k in v)
          if (!(k in shape)) return { path: `.${k}`, expected: `one of the known fields (${keys.join(', ')})`, got: k, text: `unknown field (known: ${keys.join(', ')})` };
      }
      return null;
    },
    { shape: opts.replace === true ? undefined : shape, meta: { fields: shape, strict } },
  );
}

/** Validates; returns the error message or null. */
export function validate<T>(schema: Check<T>, value: unknown, path: string): string | null {
  return schema.check(value, path);
}
