// Where the designer moves a family's knobs: for each of the five small library families, a histogram of every
// integer knob's values among the accepted children descending from it, beside the value the library module ships.
// A designer that tracks the agent's frontier moves the knobs (a longer code, a wider range) as the agent learns; one
// that copies its parent leaves them at the library's. Knobs are read with the designer's own parser
// (actors/designer/knobs.ts: top-level `const NAME = <integer>;` lines). Pure: code in, counts out.
import { knobsOf } from '../actors/designer/index.js';

/** The families whose knobs are followed: the library's five small ones (the designer's editable parents). */
export const KNOB_FAMILIES = ['door-code', 'max-pick', 'ticket-close', 'step-to-mark', 'window-search'] as const;

export interface KnobHistogram {
  /** The library module's value; null when it has no such knob (a child added it). */
  library: number | null;
  /** Children's value → how many children have it (values as JSON keys). */
  values: Record<string, number>;
  /** Children without the knob (renamed or dropped). */
  missing: number;
  /** Children whose value differs from the library's (a child without the knob is not counted). */
  changed: number;
}

export interface FamilyKnobs {
  children: number;
  knobs: Record<string, KnobHistogram>;
}

export interface KnobDrift {
  families: Record<string, FamilyKnobs>;
  /** Accepted children whose lineage reaches none of the families. */
  unattributed: number;
}

export interface Child {
  envId: string;
  name: string | null;
  parents: readonly string[];
  code: string;
}

const intKnobs = (code: string): Map<string, number> => new Map(knobsOf(code).flatMap((k) => (k.kind === 'int' ? [[k.name, k.value] as const] : [])));

/**
 * The family a child descends from: its edited parent (parents[0]) followed back through earlier accepted children to
 * a `library:<name>` module; where the chain leaves the archive (or the child had no parent), its spec name when that
 * is a family's. Null otherwise.
 */
export function lineageOf(child: Child, byId: ReadonlyMap<string, Child>, families: ReadonlySet<string>): string | null {
  const seen = new Set<string>();
  for (let c: Child | undefined = child; c && !seen.has(c.envId); ) {
    seen.add(c.envId);
    const p: string | undefined = c.parents[0];
    if (p?.startsWith('library:')) return families.has(p.slice('library:'.length)) ? p.slice('library:'.length) : null;
    const next: Child | undefined = p === undefined ? undefined : byId.get(p);
    if (!next) return c.name !== null && families.has(c.name) ? c.name : null;
    c = next;
  }
  return null; // a cycle of parents: nothing to attribute it to
}

/** The knob histograms of `children` against the library modules (`name` = the family). */
export function knobDrift(children: readonly Child[], library: readonly { name: string; code: string }[], families: readonly string[] = KNOB_FAMILIES): KnobDrift {
  const fams = new Set(families);
  const byId = new Map(children.map((c) => [c.envId, c]));
  const out: KnobDrift = { families: {}, unattributed: 0 };
  for (const f of families) {
    const lib = library.find((l) => l.name === f);
    const knobs: Record<string, KnobHistogram> = {};
    for (const [name, value] of lib ? intKnobs(lib.code) : []) knobs[name] = { library: value, values: {}, missing: 0, changed: 0 };
    out.families[f] = { children: 0, knobs };
  }
  for (const c of children) {
    const f = lineageOf(c, byId, fams);
    if (f === null) {
      out.unattributed++;
      continue;
    }
    const fam = out.families[f]!;
    fam.children++;
    const own = intKnobs(c.code);
    for (const [name, h] of Object.entries(fam.knobs)) if (!own.has(name)) h.missing++;
    for (const [name, value] of own) {
      // A knob only children have: every earlier child of the family lacked it.
      const h = (fam.knobs[name] ??= { library: null, values: {}, missing: fam.children - 1, changed: 0 });
      h.values[value] = (h.values[value] ?? 0) + 1;
      if (value !== h.library) h.changed++;
    }
  }
  return out;
}

/** Several runs' histograms as one (pooled over an arm's runs). */
export function mergeKnobDrift(ds: readonly KnobDrift[]): KnobDrift {
  const out: KnobDrift = { families: {}, unattributed: 0 };
  for (const d of ds) {
    out.unattributed += d.unattributed;
    for (const [f, fam] of Object.entries(d.families)) {
      const into = (out.families[f] ??= { children: 0, knobs: {} });
      const before = into.children;
      into.children += fam.children;
      for (const [name, h] of Object.entries(fam.knobs)) {
        const m = (into.knobs[name] ??= { library: h.library, values: {}, missing: before, changed: 0 });
        m.missing += h.missing;
        m.changed += h.changed;
        for (const [v, n] of Object.entries(h.values)) m.values[v] = (m.values[v] ?? 0) + n;
      }
      // A knob earlier runs had and this one's children did not: all of this run's children lack it.
      for (const [name, m] of Object.entries(into.knobs)) if (!(name in fam.knobs)) m.missing += fam.children;
    }
  }
  return out;
}
