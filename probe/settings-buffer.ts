// The probe's level buffer (PLR/ACCEL, with SFL's learnability score; the buffer itself is the coordinator's
// LevelBuffer): the settings the agent has played, each scored by how much gradient its groups carry. A group whose
// returns are all equal gives GRPO no signal, so a setting's score is the variance of its group's returns (p(1 − p)
// for 0/1 returns, largest at p = 1/2), averaged over the arms it was played in and smoothed over visits. A family
// is a group of the buffer; its shipped setting is a root and always stays. Pure: the caller owns the generator and
// the clock (iterations).
import { mean } from '../actors/evaluator/index.js';
import { LevelBuffer, variance, type Level } from '../actors/coordinator/level-buffer.js';
import { ProbeOptionsError } from './errors.js';
import { settingKey, type Setting } from './settings.js';

export { variance };

export interface BufferOptions {
  /** Settings kept per family (its root always among them). */
  perFamily: number;
  /** Share of a draw's probability given by staleness instead of score (PLR's ρ). */
  staleness: number;
  /** Weight of the newest group in a setting's score (1: the last group alone). */
  emaRate: number;
}

export const DEFAULT_BUFFER_OPTIONS: BufferOptions = { perFamily: 8, staleness: 0.2, emaRate: 0.5 };

export function validateBufferOptions(o: Partial<BufferOptions> = {}): BufferOptions {
  const r = { ...DEFAULT_BUFFER_OPTIONS, ...o };
  if (!Number.isInteger(r.perFamily) || r.perFamily < 1) throw new ProbeOptionsError('buffer.perFamily', 'a positive integer', r.perFamily);
  if (!(r.staleness >= 0 && r.staleness <= 1)) throw new ProbeOptionsError('buffer.staleness', 'a number in [0, 1]', r.staleness);
  if (!(r.emaRate > 0 && r.emaRate <= 1)) throw new ProbeOptionsError('buffer.emaRate', 'a number in (0, 1]', r.emaRate);
  return r;
}

export interface BufferEntry extends Level {
  setting: Setting;
  /** Mean returns of the last group, per arm (NaN where the arm was not played). */
  returnNoHint: number;
  returnHint: number;
}

export class SettingsBuffer extends LevelBuffer<BufferEntry> {
  constructor(options: BufferOptions = DEFAULT_BUFFER_OPTIONS) {
    super({ perGroup: options.perFamily, staleness: options.staleness, emaRate: options.emaRate });
  }

  /** Adds a setting (or returns the entry already holding the same knob values). */
  add(setting: Setting, root = false): BufferEntry {
    return this.insert({ key: settingKey(setting), group: setting.family, setting, root, score: NaN, visits: 0, lastVisit: -1, returnNoHint: NaN, returnHint: NaN });
  }

  /** One group played at iteration t: its returns per arm (an arm left out of training may be empty). */
  observe(key: string, noHint: readonly number[], hint: readonly number[], t: number): BufferEntry {
    const arms = [noHint, hint].filter((xs) => xs.length > 0);
    const e = this.visit(key, arms.length === 0 ? 0 : mean(arms.map(variance)), t);
    if (!e) throw new ProbeOptionsError('observe.key', 'a setting in the buffer', key);
    e.returnNoHint = mean(noHint);
    e.returnHint = mean(hint);
    return e;
  }

  family(name: string): BufferEntry[] {
    return this.group(name);
  }
}
