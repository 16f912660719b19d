// Walks the cluster config's schema (runtime/config-schema.ts) and the schemas of the sections it only carries (the
// loop, and inside it the evaluator, the learner and the sandbox limits) down to every leaf field, and makes for each
// a wrong-typed value and the out-of-range values its bounds imply. A new field is covered as soon as it is in a
// schema; a field whose schema says nothing (unknownValue) and is not mapped below fails the walk.
import type { Check } from '../../runtime/schema.js';
import { CLUSTER_CONFIG } from '../../runtime/config-schema.js';
import defaults from '../../cluster.config.js';
import { LOOP_OPTIONS_SCHEMA } from '../../actors/loop/options.js';
import { EVALUATOR_OPTIONS_SCHEMA } from '../../actors/evaluator/options.js';
import { LEARNER_OPTIONS_SCHEMA } from '../../actors/learner/options.js';
import { SANDBOX_OPTIONS_SCHEMA } from '../../sandbox/index.js';

/** Sections whose config schema is a loose record, and the schema that validates them at start. */
export const SECTION_SCHEMAS: Readonly<Record<string, Check<unknown>>> = {
  loop: LOOP_OPTIONS_SCHEMA as Check<unknown>,
  'loop.evaluator': EVALUATOR_OPTIONS_SCHEMA as Check<unknown>,
  'loop.learner': LEARNER_OPTIONS_SCHEMA as Check<unknown>,
  'loop.sandbox.limits': SANDBOX_OPTIONS_SCHEMA as Check<unknown>,
};

export interface BadValue {
  /** Dotted config path of the value written (an array leaf writes the whole array). */
  write: string;
  value: unknown;
  /** The path the error must name (without the `config.` prefix). */
  names: string;
  why: string;
}

export interface Walk {
  cases: BadValue[];
  /** Every leaf path visited. */
  leaves: string[];
  /** Leaves with no bound to step outside of (unconstrained strings, booleans): only the wrong type applies. */
  unbounded: string[];
  /** Leaves no schema describes: each is a gap to fix. */
  unchecked: string[];
}

const unwrap = (c: Check<unknown>): Check<unknown> => (c.meta.inner ? unwrap(c.meta.inner) : c);

/** A value of the wrong JSON type for `c`. */
function wrongType(c: Check<unknown>): unknown {
  switch (c.kind) {
    case 'number': return '12';
    case 'string': return 7;
    case 'boolean': return 'true';
    case 'literal': return c.meta.values!.every((v) => typeof v === 'string') ? 7 : 'x';
    case 'array': return 'a string';
    default: return 7; // object, record
  }
}

/** Values just outside what `c` accepts, each with why. */
function outOfRange(c: Check<unknown>): Array<[unknown, string]> {
  const m = c.meta;
  const out: Array<[unknown, string]> = [];
  if (c.kind === 'number') {
    if (m.min !== undefined && m.min > -Infinity) out.push([m.min - 1, `below min ${m.min}`]);
    if (m.gt !== undefined) out.push([m.gt, `not > ${m.gt}`]);
    if (m.max !== undefined && m.max < Infinity) out.push([m.max === Number.MAX_SAFE_INTEGER ? 2 ** 53 : m.max + 1, `above max ${m.max}`]);
    if (m.lt !== undefined) out.push([m.lt, `not < ${m.lt}`]);
    if (m.integer) out.push([(m.min !== undefined && m.min > -Infinity ? m.min : 0) + 0.5, 'not an integer']);
    out.push(m.infinite ? [NaN, 'NaN'] : [Infinity, 'not finite']);
  } else if (c.kind === 'string') {
    if (m.min !== undefined && m.min > 0) out.push(['', `shorter than ${m.min}`]);
    if (m.max !== undefined && m.max < Infinity) out.push(['x'.repeat(m.max + 1), `longer than ${m.max}`]);
    if (m.pattern) {
      const miss = ['', ' ', 'has space', 'http://x y', '-', '!', '/', 'A'.repeat(300)].find((x) => !m.pattern!.test(x));
      if (miss !== undefined) out.push([miss, `not matching ${m.pattern}`]);
    }
  } else if (c.kind === 'literal') {
    out.push([typeof m.values![0] === 'number' ? 123456 : 'no-such-choice', `not one of ${m.values!.join(', ')}`]);
  } else if (c.kind === 'array') {
    if (m.min !== undefined && m.min > 0) out.push([[], `fewer than ${m.min} items`]);
  }
  return out;
}

export function walkConfig(): Walk {
  const w: Walk = { cases: [], leaves: [], unbounded: [], unchecked: [] };
  const visit = (check: Check<unknown>, path: string, sample: unknown): void => {
    const section = SECTION_SCHEMAS[path];
    const c = section ?? unwrap(check);
    if (c.kind === 'unknown' || (c.kind === 'record' && unwrap(c.meta.value!).kind === 'unknown')) {
      w.unchecked.push(path);
      return;
    }
    const bad = (value: unknown, why: string, names = path, write = path): void => void w.cases.push({ write, value, names, why });
    bad(wrongType(c), `wrong type (${c.kind})`);
    if (c.kind === 'object') {
      for (const [k, f] of Object.entries(c.meta.fields!)) visit(f, `${path}.${k}`, (sample as Record<string, unknown> | undefined)?.[k]);
      return;
    }
    if (c.kind === 'record') {
      // Each entry the defaults name (roles.<role>), as written in cluster.config.ts.
      for (const k of Object.keys((sample as Record<string, unknown> | undefined) ?? {})) visit(c.meta.value!, `${path}.${k}`, (sample as Record<string, unknown>)[k]);
      return;
    }
    w.leaves.push(path);
    const range = outOfRange(c);
    for (const [value, why] of range) bad(value, why);
    if (c.kind === 'array') {
      // The item: one bad item in an otherwise valid list names `path[0]`.
      const item = unwrap(c.meta.item!);
      const items = [wrongType(item), ...outOfRange(item).map(([v]) => v)];
      for (const v of items) bad([v], `item ${JSON.stringify(v)}`, `${path}[0]`);
      if (outOfRange(item).length === 0 && range.length === 0) w.unbounded.push(path);
    } else if (range.length === 0) w.unbounded.push(path);
  };
  for (const [k, f] of Object.entries(CLUSTER_CONFIG.meta.fields!)) visit(f, k, (defaults as unknown as Record<string, unknown>)[k]);
  return w;
}

/** `{ a: { b: value } }` for the path `a.b`. */
export function nested(path: string, value: unknown): Record<string, unknown> {
  return path.split('.').reduceRight<unknown>((v, k) => ({ [k]: v }), value) as Record<string, unknown>;
}

/** JavaScript source of a value (config modules can say Infinity and NaN, which JSON cannot). */
export function jsSource(v: unknown): string {
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : String(v);
  if (Array.isArray(v)) return `[${v.map(jsSource).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{ ${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${jsSource(x)}`).join(', ')} }`;
  return JSON.stringify(v);
}
