// Hostile messages for one message type, generated from its schema: random bytes, truncated and bit-flipped
// encodings, wrong-typed and out-of-range fields, huge arrays, deep nesting, wrong schema versions, other types.
// Each case says which MessageError code a receiver must answer with, so a fuzzer can tell a refused message from
// one that slipped through (`npm run fuzz:messages`, test/runtime/hostile-messages-*.test.ts).
import { pack, type Envelope } from './codec.js';
import { decodeAny, type MessageType } from './messages.js';
import type { Check } from './schema.js';

/** The MessageError codes a hostile case may be refused with. */
export type RefusalCode = 'MESSAGE_DECODE' | 'MESSAGE_ENVELOPE' | 'MESSAGE_UNKNOWN_TYPE' | 'MESSAGE_VERSION' | 'MESSAGE_SCHEMA';

export interface FuzzCase {
  /** What was done, e.g. `wrong type at .env.spec.maxTurns`. */
  kind: string;
  bytes: Uint8Array;
  /** The codes a receiver may refuse it with (a truncated encoding may read as another envelope). */
  expect: readonly RefusalCode[];
}

export type Rng = () => number;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const randInt = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

/** A value that conforms to `check` (best effort for patterned strings), small and random. */
export function sampleValue(check: Check<unknown>, rng: Rng, depth = 0): unknown {
  const m = check.meta;
  if (m.wrapper === 'optional') return rng() < 0.5 || depth > 6 ? undefined : sampleValue(m.inner!, rng, depth + 1);
  if (m.wrapper === 'nullable') return rng() < 0.3 ? null : sampleValue(m.inner!, rng, depth + 1);
  switch (check.kind) {
    case 'string': {
      if (m.pattern?.source === '^[0-9a-f]{64}$') return 'ab'.repeat(32);
      const len = Math.max(m.min ?? 0, Math.min(m.max ?? 12, randInt(rng, 1, 12)));
      return Array.from({ length: len }, () => pick(rng, [...'abcdefghij-0123'])).join('');
    }
    case 'number': {
      const lo = Number.isFinite(m.min) ? m.min! : m.gt !== undefined ? m.gt + 1 : 0;
      const hi = Number.isFinite(m.max) ? m.max! : m.lt !== undefined ? m.lt - 1 : lo + 100;
      const x = lo + rng() * Math.max(0, hi - lo);
      return m.integer ? Math.min(hi, Math.ceil(x)) : x;
    }
    case 'boolean':
      return rng() < 0.5;
    case 'bytes':
      return Uint8Array.from({ length: 4 * randInt(rng, 0, 4) }, () => randInt(rng, 0, 3));
    case 'literal':
      return pick(rng, m.values!);
    case 'array': {
      const n = depth > 6 ? (m.min ?? 0) : Math.max(m.min ?? 0, randInt(rng, 0, 2));
      return Array.from({ length: n }, () => sampleValue(m.item!, rng, depth + 1));
    }
    case 'record':
      return depth > 6 ? {} : { k: sampleValue(m.value!, rng, depth + 1) };
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, c] of Object.entries(m.fields ?? {})) {
        const v = sampleValue(c, rng, depth + 1);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    default:
      return null;
  }
}

/** Paths (as key lists) to every required leaf and every field of `check`'s objects, with the check at each. */
interface FieldAt {
  path: Array<string | number>;
  check: Check<unknown>;
  /** null is a valid value here (an optional or nullable field). */
  nullable: boolean;
}

function fieldPaths(check: Check<unknown>, value: unknown, prefix: Array<string | number> = [], nullable = false): FieldAt[] {
  const m = check.meta;
  if (m.wrapper) return value === undefined || value === null ? [] : fieldPaths(m.inner!, value, prefix, true);
  const out: FieldAt[] = prefix.length ? [{ path: prefix, check, nullable }] : [];
  if (check.kind === 'object' && value && typeof value === 'object')
    for (const [k, c] of Object.entries(m.fields ?? {})) out.push(...fieldPaths(c, (value as Record<string, unknown>)[k], [...prefix, k]));
  else if (check.kind === 'array' && Array.isArray(value)) value.forEach((v, i) => out.push(...fieldPaths(m.item!, v, [...prefix, i])));
  return out;
}

function setAt(root: unknown, path: Array<string | number>, v: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[path.at(-1)!] = v;
  return copy;
}

const show = (path: Array<string | number>): string => path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');

/** A value of a kind `check` refuses (a wrong type, or a value outside its range). */
function wrongValue(check: Check<unknown>, rng: Rng): unknown[] {
  const m = check.meta;
  switch (check.kind) {
    case 'string':
      return [42, true, new Uint8Array(3), ...(Number.isFinite(m.max) ? ['x'.repeat(m.max! + 1)] : []), ...((m.min ?? 0) > 0 ? [''] : [])];
    case 'number':
      return ['7', false, Number.NaN, ...(m.infinite ? [] : [Infinity, -Infinity]), ...(m.integer ? [0.5] : []), ...(Number.isFinite(m.min) ? [m.min! - 1] : []), ...(Number.isFinite(m.max) ? [m.max! + 1] : [])];
    case 'boolean':
      return [1, 'true'];
    case 'bytes':
      return ['AAAA', [1, 2, 3, 4]];
    case 'literal':
      return ['not-one-of-them', 3];
    case 'array':
      return [{}, 'x', ...((m.min ?? 0) > 0 ? [[]] : []), ...wrongValue(m.item!, rng).slice(0, 1).map((bad) => [bad])];
    case 'record':
    case 'object':
      return [[], 'x', 0, null];
    default:
      return [];
  }
}

/** msgpack bytes of `depth` nested one-element arrays around nil: deeper than any decoder's recursion should go. */
export function deepNesting(depth: number): Uint8Array {
  const out = new Uint8Array(depth + 1).fill(0x91);
  out[depth] = 0xc0;
  return out;
}

function decodes(bytes: Uint8Array): boolean {
  try {
    decodeAny(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A string to pack where raw bytes go afterwards (msgpackr's pack recurses, so deep nesting is spliced in). */
const PLACEHOLDER = '\u0000spade-fuzz-placeholder\u0000';

function spliced(packed: Uint8Array, raw: Uint8Array): Uint8Array {
  const marker = pack(PLACEHOLDER);
  for (let i = 0; i + marker.length <= packed.length; i++)
    if (marker.every((b, j) => packed[i + j] === b)) {
      const out = new Uint8Array(packed.length - marker.length + raw.length);
      out.set(packed.subarray(0, i));
      out.set(raw, i);
      out.set(packed.subarray(i + marker.length), i + raw.length);
      return out;
    }
  throw new RangeError('placeholder not found in the packed message');
}

const env = (t: string, v: unknown, b: unknown): Uint8Array => pack({ t, v, b } as unknown as Envelope);

/**
 * `count` hostile cases for `def`, drawn from every kind in turn. `others` are other message types (their valid
 * bodies on this subject must be refused as the wrong type).
 */
export function hostileMessages(def: MessageType<unknown>, count: number, rng: Rng, others: readonly MessageType<unknown>[] = []): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const valid = (): unknown => sampleValue(def.schema, rng);
  const makers: Array<() => FuzzCase | null> = [
    () => ({ kind: 'random bytes', bytes: Uint8Array.from({ length: randInt(rng, 0, 64) }, () => randInt(rng, 0, 255)), expect: ['MESSAGE_DECODE', 'MESSAGE_ENVELOPE'] }),
    () => {
      const good = env(def.type, def.version, valid());
      return { kind: 'truncated', bytes: good.slice(0, randInt(rng, 0, good.length - 1)), expect: ['MESSAGE_DECODE', 'MESSAGE_ENVELOPE'] };
    },
    () => {
      const body = valid();
      const paths = fieldPaths(def.schema, body);
      if (!paths.length) return null;
      const { path, check, nullable } = pick(rng, paths);
      const bad = wrongValue(check, rng).filter((v) => !nullable || v !== null);
      if (!bad.length) return null;
      const v = pick(rng, bad);
      return { kind: `wrong value at ${show(path)}: ${typeof v === 'string' && v.length > 20 ? `string(${v.length})` : String(v)}`, bytes: env(def.type, def.version, setAt(body, path, v)), expect: ['MESSAGE_SCHEMA'] };
    },
    () => {
      const body = valid();
      const paths = fieldPaths(def.schema, body).filter((p) => p.check.kind !== 'array' && p.check.kind !== 'unknown');
      if (!paths.length) return null;
      const { path } = pick(rng, paths);
      return { kind: `huge array at ${show(path)}`, bytes: env(def.type, def.version, setAt(body, path, new Array(200_000).fill(7))), expect: ['MESSAGE_SCHEMA'] };
    },
    () => {
      // An array32 header claiming 2^32 - 1 items, with none following.
      return { kind: 'array header lying about its length', bytes: Uint8Array.of(0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0), expect: ['MESSAGE_DECODE'] };
    },
    () => ({ kind: 'deep nesting (100000 levels)', bytes: deepNesting(100_000), expect: ['MESSAGE_DECODE', 'MESSAGE_ENVELOPE'] }),
    () => {
      const body = valid();
      const paths = fieldPaths(def.schema, body).filter((p) => p.check.kind !== 'unknown');
      if (!paths.length) return null;
      const { path } = pick(rng, paths);
      return { kind: `deep nesting at ${show(path)}`, bytes: spliced(env(def.type, def.version, setAt(body, path, PLACEHOLDER)), deepNesting(5_000)), expect: ['MESSAGE_SCHEMA', 'MESSAGE_DECODE'] };
    },
    () => {
      const v = pick(rng, [def.version + 1, 0, -1, 2 ** 31, Number.NaN, Infinity, def.version + 0.5]);
      return { kind: `schema version ${v}`, bytes: env(def.type, v, valid()), expect: ['MESSAGE_VERSION'] };
    },
    () => {
      const v = pick(rng, ['1', null, [1], true]);
      return { kind: `schema version of the wrong type (${JSON.stringify(v)})`, bytes: env(def.type, v, valid()), expect: ['MESSAGE_ENVELOPE'] };
    },
    () => ({ kind: 'unknown type', bytes: env(`${def.type}.nope`, def.version, valid()), expect: ['MESSAGE_UNKNOWN_TYPE'] }),
    () => {
      const other = others.filter((o) => o.type !== def.type);
      if (!other.length) return null;
      const o = pick(rng, other);
      return { kind: `a valid ${o.type} on this subject`, bytes: env(o.type, o.version, sampleValue(o.schema, rng)), expect: ['MESSAGE_UNKNOWN_TYPE'] };
    },
    () => ({ kind: 'not an envelope', bytes: pack(pick(rng, [[def.type, def.version, {}], 'hello', 42, null, { t: def.type, v: def.version }])), expect: ['MESSAGE_ENVELOPE'] }),
    () => ({ kind: 'body not an object', bytes: env(def.type, def.version, pick(rng, [[], 'x', 3, null, new Uint8Array(2)])), expect: ['MESSAGE_SCHEMA'] }),
    () => {
      const good = env(def.type, def.version, valid());
      const i = randInt(rng, 0, Math.min(8, good.length - 1));
      const flipped = good.slice();
      flipped[i] = flipped[i]! ^ (1 << randInt(rng, 0, 7));
      // A flip may leave a valid message (a changed seed); only refusals are hostile cases.
      if (decodes(flipped)) return null;
      return { kind: `bit flip in byte ${i} of the header`, bytes: flipped, expect: ['MESSAGE_DECODE', 'MESSAGE_ENVELOPE', 'MESSAGE_UNKNOWN_TYPE', 'MESSAGE_VERSION', 'MESSAGE_SCHEMA'] };
    },
  ];
  for (let i = 0; cases.length < count && i < count * 10; i++) {
    const c = makers[i % makers.length]!();
    if (c) cases.push(c);
  }
  return cases;
}
