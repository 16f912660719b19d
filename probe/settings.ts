// Settings of a family: a library module with other values of its integer knobs (actors/designer/knobs.ts), nothing
// else changed. The probe's curriculum moves knobs as ACCEL edits a level: a child nudges one or two knobs of its
// parent (warmstart's nudge: half to twice the value), kept within a factor of the family root's value so that a
// chain of edits cannot run off to settings whose episodes outgrow the agent's context. Pure: text in, text out.
import { intKnobsOf, withKnobs } from '../actors/designer/index.js';
import { nudge, shuffled } from '../warmstart/index.js';

export interface Setting {
  family: string;
  /** Integer knob values by name, in source order. */
  knobs: Record<string, number>;
  code: string;
}

/** `family{A=1,B=2}`: one key per distinct setting of a family. */
export function settingKey(s: Pick<Setting, 'family' | 'knobs'>): string {
  return `${s.family}{${Object.entries(s.knobs).map(([k, v]) => `${k}=${v}`).join(',')}}`;
}

/** The setting a module is written at; null when it has no integer knob (nothing for a curriculum to move). */
export function rootSetting(family: string, code: string): Setting | null {
  const ks = intKnobsOf(code);
  return ks.length === 0 ? null : { family, knobs: Object.fromEntries(ks.map((k) => [k.name, k.value])), code };
}

export interface ChildOptions {
  /** A knob stays within [root / spread, root · spread] (and at least 1). */
  spread: number;
}

/**
 * A child of `parent`: one knob (or two, half the time) nudged, clamped to the root's spread. Null when every nudge
 * lands back on the parent's values (a knob pinned at its bound), so the caller draws another parent.
 */
export function childSetting(parent: Setting, root: Setting, random: () => number, o: ChildOptions): Setting | null {
  const names = Object.keys(parent.knobs);
  const moved = shuffled(names, random).slice(0, random() < 0.5 || names.length === 1 ? 1 : 2);
  const knobs = { ...parent.knobs };
  for (const n of moved) {
    const r = root.knobs[n]!;
    const lo = Math.max(1, Math.ceil(r / o.spread)), hi = Math.max(lo, Math.floor(r * o.spread));
    knobs[n] = Math.min(hi, Math.max(lo, nudge(parent.knobs[n]!, random)));
  }
  if (names.every((n) => knobs[n] === parent.knobs[n])) return null;
  return { family: parent.family, knobs, code: withKnobs(root.code, knobs) };
}
