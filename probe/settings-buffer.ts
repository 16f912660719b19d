// The probe's level buffer (PLR/ACCEL, with SFL's learnability score): the settings the agent has played, each
// scored by how much gradient its groups carry. A group whose returns are all equal gives GRPO no signal, so a
// setting's score is the variance of its group's returns (p(1 − p) for 0/1 returns, largest at p = 1/2), averaged
// over the arms it was played in and smoothed over visits. Replays are drawn by score, mixed with staleness so that
// a setting not seen for a while is looked at again (its score may have moved as the agent learned). Pure: the
// caller owns the generator and the clock (iterations).
import { mean } from '../actors/evaluator/index.js';
import { ProbeOptionsError } from './errors.js';
import { settingKey, type Setting } from './settings.js';

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

export interface BufferEntry {
  key: string;
  setting: Setting;
  /** The library's own setting of the family: never evicted. */
  root: boolean;
  /** Smoothed return variance of its groups (NaN until first played). */
  score: number;
  visits: number;
  /** Iteration of the last visit (−1: never). */
  lastVisit: number;
  /** Mean returns of the last group, per arm (NaN where the arm was not played). */
  returnNoHint: number;
  returnHint: number;
}

/** Population variance; 0 for fewer than two values. */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return mean(xs.map((x) => (x - m) ** 2));
}

export class SettingsBuffer {
  readonly entries = new Map<string, BufferEntry>();
  constructor(readonly options: BufferOptions = DEFAULT_BUFFER_OPTIONS) {}

  /** Adds a setting (or returns the entry already holding the same knob values). */
  add(setting: Setting, root = false): BufferEntry {
    const key = settingKey(setting);
    const old = this.entries.get(key);
    if (old) return old;
    const e: BufferEntry = { key, setting, root, score: NaN, visits: 0, lastVisit: -1, returnNoHint: NaN, returnHint: NaN };
    this.entries.set(key, e);
    return e;
  }

  /** One group played at iteration t: its returns per arm (an arm left out of training may be empty). */
  observe(key: string, noHint: readonly number[], hint: readonly number[], t: number): BufferEntry {
    const e = this.entries.get(key);
    if (!e) throw new ProbeOptionsError('observe.key', 'a setting in the buffer', key);
    const arms = [noHint, hint].filter((xs) => xs.length > 0);
    const v = arms.length === 0 ? 0 : mean(arms.map(variance));
    e.score = Number.isNaN(e.score) ? v : (1 - this.options.emaRate) * e.score + this.options.emaRate * v;
    e.visits += 1;
    e.lastVisit = t;
    e.returnNoHint = mean(noHint);
    e.returnHint = mean(hint);
    return e;
  }

  /** The replay distribution at iteration t over `among` (default: every entry): (1 − ρ)·score share + ρ·staleness share. */
  probabilities(t: number, among: readonly BufferEntry[] = [...this.entries.values()]): number[] {
    const score = among.map((e) => (Number.isNaN(e.score) ? 0 : e.score));
    const stale = among.map((e) => t - e.lastVisit);
    const S = score.reduce((a, b) => a + b, 0), C = stale.reduce((a, b) => a + b, 0);
    const rho = S === 0 ? 1 : this.options.staleness;
    return among.map((_, i) => (1 - rho) * (S > 0 ? score[i]! / S : 0) + rho * (C > 0 ? stale[i]! / C : 1 / among.length));
  }

  /** `count` distinct entries drawn from `among` by `probabilities` (all of them when there are no more). */
  pick(count: number, t: number, random: () => number, among: readonly BufferEntry[] = [...this.entries.values()]): BufferEntry[] {
    const pool = [...among];
    const out: BufferEntry[] = [];
    while (out.length < count && pool.length > 0) {
      const p = this.probabilities(t, pool);
      let u = random() * p.reduce((a, b) => a + b, 0), i = 0;
      while (i < p.length - 1 && u >= p[i]!) u -= p[i++]!;
      out.push(pool.splice(i, 1)[0]!);
    }
    return out;
  }

  family(name: string): BufferEntry[] {
    return [...this.entries.values()].filter((e) => e.setting.family === name);
  }

  /** Keeps at most perFamily settings per family: the played non-roots with the lowest scores go first. */
  evict(): BufferEntry[] {
    const gone: BufferEntry[] = [];
    for (const fam of new Set([...this.entries.values()].map((e) => e.setting.family))) {
      const members = this.family(fam);
      const out = members.filter((e) => !e.root && e.visits > 0).sort((a, b) => a.score - b.score).slice(0, Math.max(0, members.length - this.options.perFamily));
      for (const e of out) this.entries.delete(e.key);
      gone.push(...out);
    }
    return gone;
  }
}
