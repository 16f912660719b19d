// A level buffer in the manner of PLR and ACCEL, scored as SFL scores levels: the environments (levels) the agent
// has played, each with a score for how much gradient its groups carry, drawn again by score mixed with staleness so
// that a level not seen for a while is looked at again (its score may have moved as the agent learned). Each group
// (a family) keeps a bounded number of levels: the played ones with the lowest scores go first, roots never. Pure:
// the caller owns the generator and the clock (iterations). The coordinator's replays (replay.ts) and the probe's
// settings curriculum (probe/settings-buffer.ts) hold their levels in it.
import { learnability } from '../evaluator/designer-reward.js';
import { mean } from '../evaluator/score.js';

export interface LevelOptions {
  /** Levels kept per group (roots always among them). */
  perGroup: number;
  /** Share of a draw's probability given by staleness instead of score (PLR's ρ). */
  staleness: number;
  /** Weight of the newest score in a level's smoothed score (1: the last one alone). */
  emaRate: number;
}

export interface Level {
  key: string;
  /** The group (family) whose size the buffer bounds. */
  group: string;
  /** Never evicted (the probe's shipped settings). */
  root: boolean;
  /** Smoothed score (NaN until first scored). */
  score: number;
  visits: number;
  /** Iteration of the last visit (−1: never). */
  lastVisit: number;
}

/** Population variance; 0 for fewer than two values. */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return mean(xs.map((x) => (x - m) ** 2));
}

/** The evaluator's learnability p(1 − p) of a mean return clamped to [0, 1] (a partial-credit return may leave it). */
export const learnabilityOf = (p: number): number => learnability(Math.min(1, Math.max(0, p)));

export class LevelBuffer<E extends Level> {
  readonly entries = new Map<string, E>();
  constructor(readonly options: LevelOptions) {}

  /** Adds a level (or returns the one already under its key). */
  insert(e: E): E {
    const old = this.entries.get(e.key);
    if (old) return old;
    this.entries.set(e.key, e);
    return e;
  }

  /** A visit at iteration t that scored `v`; undefined when the level is not (or no longer) held. */
  visit(key: string, v: number, t: number): E | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    e.score = Number.isNaN(e.score) ? v : (1 - this.options.emaRate) * e.score + this.options.emaRate * v;
    e.visits += 1;
    e.lastVisit = Math.max(e.lastVisit, t);
    return e;
  }

  /** The replay distribution at iteration t over `among` (default: every level): (1 − ρ)·score share + ρ·staleness share. */
  probabilities(t: number, among: readonly E[] = [...this.entries.values()]): number[] {
    const score = among.map((e) => (Number.isNaN(e.score) ? 0 : e.score));
    const stale = among.map((e) => Math.max(0, t - e.lastVisit));
    const S = score.reduce((a, b) => a + b, 0), C = stale.reduce((a, b) => a + b, 0);
    const rho = S === 0 ? 1 : this.options.staleness;
    return among.map((_, i) => (1 - rho) * (S > 0 ? score[i]! / S : 0) + rho * (C > 0 ? stale[i]! / C : 1 / among.length));
  }

  /** `count` distinct levels drawn from `among` by `probabilities` (all of them when there are no more). */
  pick(count: number, t: number, random: () => number, among: readonly E[] = [...this.entries.values()]): E[] {
    const pool = [...among];
    const out: E[] = [];
    while (out.length < count && pool.length > 0) {
      const p = this.probabilities(t, pool);
      let u = random() * p.reduce((a, b) => a + b, 0), i = 0;
      while (i < p.length - 1 && u >= p[i]!) u -= p[i++]!;
      out.push(pool.splice(i, 1)[0]!);
    }
    return out;
  }

  group(name: string): E[] {
    return [...this.entries.values()].filter((e) => e.group === name);
  }

  /** Keeps at most perGroup levels per group: the played non-roots with the lowest scores go first. */
  evict(): E[] {
    const gone: E[] = [];
    for (const g of new Set([...this.entries.values()].map((e) => e.group))) {
      const members = this.group(g);
      const out = members.filter((e) => !e.root && e.visits > 0).sort((a, b) => a.score - b.score).slice(0, Math.max(0, members.length - this.options.perGroup));
      for (const e of out) this.entries.delete(e.key);
      gone.push(...out);
    }
    return gone;
  }
}
