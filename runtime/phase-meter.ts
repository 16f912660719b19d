// Where a thread's time goes, by phase: each measured call adds its wall time, the thread's CPU time
// (runtime/thread-cpu.ts, 10 ms ticks, unbiased when summed over many calls), and the model FLOPs and tokens it
// did. A thread keeps one meter; its totals travel to the host's profile (runtime/work-profile.ts) as plain data.
import { ThreadCpu } from './thread-cpu.js';

export interface PhaseTotal {
  calls: number;
  wallMs: number;
  /** NaN where /proc is unavailable. */
  cpuMs: number;
  tokens: number;
  flops: number;
}

export type PhaseTotals = Record<string, PhaseTotal>;

/** A phase with nothing charged yet. */
export const zeroTotal = (): PhaseTotal => ({ calls: 0, wallMs: 0, cpuMs: 0, tokens: 0, flops: 0 });

export class PhaseMeter {
  private readonly cpu = new ThreadCpu();
  private readonly totals: PhaseTotals = {};

  /** Runs fn and charges its time to `phase`, with the tokens and FLOPs the caller says it did. */
  async measure<T>(phase: string, work: { tokens: number; flops: number }, fn: () => Promise<T>): Promise<T> {
    const wall0 = performance.now(), cpu0 = this.cpu.ms();
    try {
      return await fn();
    } finally {
      const t = (this.totals[phase] ??= zeroTotal());
      t.calls++;
      t.wallMs += performance.now() - wall0;
      t.cpuMs += this.cpu.ms() - cpu0;
      t.tokens += work.tokens;
      t.flops += work.flops;
    }
  }

  /** A copy of the totals so far. */
  snapshot(): PhaseTotals {
    return addTotals({}, this.totals);
  }
}

/** a + b per phase (a new object). */
export function addTotals(a: PhaseTotals, b: PhaseTotals): PhaseTotals {
  const out: PhaseTotals = {};
  for (const src of [a, b]) {
    for (const [phase, t] of Object.entries(src)) {
      const o = (out[phase] ??= zeroTotal());
      o.calls += t.calls;
      o.wallMs += t.wallMs;
      o.cpuMs += t.cpuMs;
      o.tokens += t.tokens;
      o.flops += t.flops;
    }
  }
  return out;
}
