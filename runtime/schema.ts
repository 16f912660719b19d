// A small, fast structural validator shared by message schemas and the cluster config.
// Each check reports the path of the offending field and the expected form, so errors
// read like "config.roles.sandbox.concurrency: expected an integer >= 1, got -1".

export type Check<T> = {
  readonly kind: string;
  /** Returns null when `value` conforms, else a message naming `path`. */
  check(value: unknown, path: string): string | null;
  readonly optional?: boolean;
  /** Phantom field carrying the validated type. */
  readonly _type?: T;
};

export type Infer<C> = C extends Check<infer T> ? T : never;

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value instanceof Uint8Array) return `bytes(${value.length})`;
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? `array(${value.length})` : 'object';
  return String(value);
}

function fail(path: string, expected: string, value: unknown): string {
  return `${path}: expected ${expected}, got ${show(value)}`;
}

export function string(opts: { min?: number; max?: number; pattern?: RegExp } = {}): Check<string> {
  const { min = 0, max = Infinity, pattern } = opts;
  const expected = `a string${pattern ? ` matching ${pattern}` : ''}${min > 0 ? ` of length >= ${min}` : ''}${max < Infinity ? ` of length <= ${max}` : ''}`;
  return {
    kind: 'string',
    check: (v, p) =>
      typeof v === 'string' && v.length >= min && v.length <= max && (!pattern || pattern.test(v)) ? null : fail(p, expected, v),
  };
}

export function number(opts: { min?: number; max?: number; integer?: boolean } = {}): Check<number> {
  const { min = -Infinity, max = Infinity, integer = false } = opts;
  const expected = `${integer ? 'an integer' : 'a finite number'}${min > -Infinity ? ` >= ${min}` : ''}${max < Infinity ? ` <= ${max}` : ''}`;
  return {
    kind: 'number',
    check: (v, p) =>
      typeof v === 'number' && Number.isFinite(v) && (!integer || Number.isInteger(v)) && v >= min && v <= max
        ? null
        : fail(p, expected, v),
  };
}

export const int = (opts: { min?: number; max?: number } = {}): Check<number> => number({ ...opts, integer: true });

export function boolean(): Check<boolean> {
  return { kind: 'boolean', check: (v, p) => (typeof v === 'boolean' ? null : fail(p, 'true or false', v)) };
}

export function bytes(opts: { max?: number } = {}): Check<Uint8Array> {
  const max = opts.max ?? Infinity;
  return {
    kind: 'bytes',
    check: (v, p) => (v instanceof Uint8Array && v.length <= max ? null : fail(p, `bytes${max < Infinity ? ` (<= ${max})` : ''}`, v)),
  };
}

export function literal<const L extends string | number | boolean>(...values: L[]): Check<L> {
  const expected = `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
  return { kind: 'literal', check: (v, p) => ((values as unknown[]).includes(v) ? null : fail(p, expected, v)) };
}

export function unknownValue(): Check<unknown> {
  return { kind: 'unknown', check: () => null };
}

export function optional<T>(inner: Check<T>): Check<T | undefined> {
  return { kind: inner.kind, optional: true, check: (v, p) => (v === undefined || v === null ? null : inner.check(v, p)) };
}

export function array<T>(item: Check<T>, opts: { min?: number; max?: number } = {}): Check<T[]> {
  const { min = 0, max = Infinity } = opts;
  return {
    kind: 'array',
    check(v, p) {
      if (!Array.isArray(v) || v.length < min || v.length > max)
        return fail(p, `an array${min > 0 ? ` of >= ${min} items` : ''}${max < Infinity ? ` of <= ${max} items` : ''}`, v);
      for (let i = 0; i < v.length; i++) {
        const e = item.check(v[i], `${p}[${i}]`);
        if (e) return e;
      }
      return null;
    },
  };
}

export function record<T>(value: Check<T>): Check<Record<string, T>> {
  return {
    kind: 'record',
    check(v, p) {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) return fail(p, 'an object', v);
      for (const [k, x] of Object.entries(v)) {
        const e = value.check(x, `${p}.${k}`);
        if (e) return e;
      }
      return null;
    },
  };
}

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
export type ObjectOf<S extends Shape> = { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };

/** An object with known fields; unknown fields are rejected when `strict` (configs), allowed otherwise (forward-compatible messages). */
export function object<S extends Shape>(shape: S, opts: { strict?: boolean } = {}): Check<ObjectOf<S>> {
  const keys = Object.keys(shape);
  return {
    kind: 'object',
    check(v, p) {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) return fail(p, 'an object', v);
      const o = v as Record<string, unknown>;
      for (const k of keys) {
        const e = shape[k]!.check(o[k], `${p}.${k}`);
        if (e) return e;
      }
      if (opts.strict) {
        for (const k of Object.keys(o)) if (!(k in shape)) return `${p}.${k}: unknown field (known: ${keys.join(', ')})`;
      }
      return null;
    },
  };
}

/** Validates and narrows; returns the error message or null. */
export function validate<T>(schema: Check<T>, value: unknown, path: string): string | null {
  return schema.check(value, path);
}
