// Other knob settings of a library module, as agent data: the module with its integer knobs (counts, tries, digit
// widths) at other values and nothing else changed, each played by its oracle like a library env. One setting of a
// family teaches the agent that setting's answers (door-code's base types four digits whether the code has one or
// four); many settings make the answer something to read off the observation. Each knob is drawn log-uniformly within
// [value / spread, value · spread] (so one-digit codes are as likely as eight-digit ones), and a setting the near
// held-out tier uses (reserved.ts) is never drawn. Pure and seeded.
import { intKnobsOf, withKnobs } from '../actors/designer/index.js';
import { libraryEnvOf, type LibraryEnv } from './library.js';
import { knobSetting } from './reserved.js';

export interface SettingPlan {
  /** Distinct settings drawn per module (fewer when its knob space runs out). */
  perModule: number;
  /** A knob stays within [max(1, ⌈value / spread⌉), ⌊value · spread⌋]. */
  spread: number;
  /** Library module name → knob settings never drawn (`knobSetting` strings: the near tier's). */
  reserved: Readonly<Record<string, readonly string[]>>;
}

export interface KnobSettings {
  /** Each setting as an env named `<module>{A=1,B=2}`; its spec (and so its prompt) is the module's own. */
  envs: LibraryEnv[];
  /** Draws left out because their setting is reserved. */
  reserved: number;
}

/** A log-uniform integer in [lo, hi]. */
function logUniform(lo: number, hi: number, random: () => number): number {
  return Math.min(hi, Math.floor(Math.exp(Math.log(lo) + random() * (Math.log(hi + 1) - Math.log(lo)))));
}

/**
 * Up to `plan.perModule` distinct settings of each module other than its own: each integer knob moved with probability
 * 1/2 (at least one moved), to a log-uniform value within the spread. Modules without integer knobs give none.
 */
export function knobSettings(modules: readonly LibraryEnv[], plan: SettingPlan, random: () => number): KnobSettings {
  const envs: LibraryEnv[] = [];
  let reserved = 0;
  for (const m of modules) {
    const ints = intKnobsOf(m.code);
    if (ints.length === 0) continue;
    const seen = new Set<string>([knobSetting(m.code)]);
    // A bounded number of draws: a small knob space repeats itself, and the loop must end.
    for (let draw = 0, made = 0; made < plan.perModule && draw < plan.perModule * 20; draw++) {
      const values: Record<string, number> = {};
      const moved = ints.filter(() => random() < 0.5);
      for (const k of moved.length > 0 ? moved : [ints[Math.floor(random() * ints.length)]!]) {
        const lo = Math.max(1, Math.ceil(k.value / plan.spread)), hi = Math.max(lo, Math.floor(k.value * plan.spread));
        values[k.name] = logUniform(lo, hi, random);
      }
      const code = withKnobs(m.code, values);
      const setting = knobSetting(code);
      if (seen.has(setting)) continue;
      seen.add(setting);
      if (plan.reserved[m.name]?.includes(setting)) { reserved++; continue; }
      const key = `${m.name}{${ints.map((k) => `${k.name}=${values[k.name] ?? k.value}`).join(',')}}`;
      envs.push(libraryEnvOf(code, key, m.family));
      made++;
    }
  }
  return { envs, reserved };
}
