// What `npm run bench:loop` reports for one arm run and over rounds: agent episodes a second and learner updates a
// minute in the steady state (from the coordinator's first tick to its final line, so start-up does not dilute the
// rate), how busy the cores were, and the spade arm's rates against the fixed arm's. Pure over parsed metrics lines.

import { BenchError } from '../bench/errors.js';
import { mergeProfiles, type ProfileSummary } from '../actors/coordinator/run-profile.js';

type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ArmRun {
  arm: 'fixed' | 'spade';
  /** The run's metrics.jsonl, parsed. */
  lines: Line[];
  /** Wall-clock seconds of the host process, start to exit. */
  wallSec: number;
  /** CPU seconds of the host and its child processes (user + system). */
  cpuSec: number;
  cores: number;
  /** Peak resident memory of the host process (VmHWM), MiB; null where /proc could not be read. */
  peakRssMb?: number | null;
}

export interface ArmRunFigures {
  agentEpisodes: number;
  agentEpisodesPerSec: number;
  updatesPerMin: number;
  /** cpuSec / (wallSec · cores): the share of the machine the run kept busy, start-up included. */
  utilisation: number;
  cpuSec: number;
  wallSec: number;
  agentShare: number | null;
  learnerBusy: number | null;
  stalenessMax: number | null;
  policyTokens: number;
  /** Where the run's CPU seconds went, as of its final line (the hosts' last readings, at most host.profileEveryMs old). */
  profile: ProfileSummary | null;
  peakRssMb: number | null;
}

/** A run's metrics lack what a figure needs. */
export class LoopFiguresError extends BenchError {
  constructor(message: string) {
    super(message, { code: 'LOOP_FIGURES' });
  }
}

/** One run's figures; throws naming what its metrics lack. */
export function armRunFigures(r: ArmRun): ArmRunFigures {
  const end = r.lines.filter((l) => l.event === 'final').pop();
  if (!end) throw new LoopFiguresError(`the ${r.arm} run wrote no final metrics line (it did not spend its budget)`);
  const start = r.lines.find((l) => l.event === 'tick' && l.ts < end.ts);
  if (!start) throw new LoopFiguresError(`the ${r.arm} run ended before its first tick: give it a larger budget`);
  const sec = (end.ts - start.ts) / 1000;
  return {
    agentEpisodes: end.agentEpisodes,
    agentEpisodesPerSec: (end.agentEpisodes - start.agentEpisodes) / sec,
    updatesPerMin: ((end.learner.updates - start.learner.updates) / sec) * 60,
    utilisation: r.cpuSec / (r.wallSec * r.cores),
    cpuSec: r.cpuSec,
    wallSec: r.wallSec,
    agentShare: end.tokens?.agentShare ?? null,
    learnerBusy: end.learner?.busyFraction ?? null,
    stalenessMax: end.learner?.stalenessMax ?? null,
    policyTokens: end.tokens?.total ?? 0,
    profile: (end.profile as ProfileSummary | undefined) ?? null,
    peakRssMb: r.peakRssMb ?? null,
  };
}

/** The middle value; with an even count the mean of the middle two. */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The medians of the rounds' figures, except where a field says otherwise. */
export interface ArmSummary
  extends Pick<ArmRunFigures, 'agentEpisodesPerSec' | 'updatesPerMin' | 'utilisation' | 'cpuSec' | 'wallSec' | 'agentShare' | 'learnerBusy'> {
  rounds: number;
  /** Lowest and highest round, beside the median. */
  agentEpisodesPerSecRange: [number, number];
  /** The highest round's. */
  stalenessMax: number | null;
  /** The rounds' profiles added up. */
  profile: ProfileSummary | null;
  /** The highest round's. */
  peakRssMb: number | null;
}

export function armSummary(runs: readonly ArmRunFigures[]): ArmSummary {
  const med = (f: (x: ArmRunFigures) => number | null): number | null => {
    const xs = runs.map(f).filter((x): x is number => x !== null);
    return xs.length ? median(xs) : null;
  };
  const eps = runs.map((x) => x.agentEpisodesPerSec);
  const stale = runs.map((x) => x.stalenessMax).filter((x): x is number => x !== null);
  return {
    rounds: runs.length,
    agentEpisodesPerSec: median(eps),
    agentEpisodesPerSecRange: [Math.min(...eps), Math.max(...eps)],
    updatesPerMin: median(runs.map((x) => x.updatesPerMin)),
    utilisation: median(runs.map((x) => x.utilisation)),
    cpuSec: median(runs.map((x) => x.cpuSec)),
    wallSec: median(runs.map((x) => x.wallSec)),
    agentShare: med((x) => x.agentShare),
    learnerBusy: med((x) => x.learnerBusy),
    stalenessMax: stale.length ? Math.max(...stale) : null,
    profile: mergeProfiles(runs.map((x) => x.profile)),
    peakRssMb: runs.some((x) => x.peakRssMb !== null) ? Math.max(...runs.map((x) => x.peakRssMb ?? 0)) : null,
  };
}

/**
 * spade against fixed: the ratio of medians, and the ratios of the rounds' pairs (round i of each arm ran back to
 * back), whose lowest and highest bound what one more round would likely show.
 */
export function armRatios(fixed: readonly ArmRunFigures[], spade: readonly ArmRunFigures[]): { spadeVsFixed: number; updatesSpadeVsFixed: number; pairs: number[] } {
  const n = Math.min(fixed.length, spade.length);
  if (n === 0) throw new LoopFiguresError('no round finished for both arms');
  const pairs = Array.from({ length: n }, (_, i) => spade[i]!.agentEpisodesPerSec / fixed[i]!.agentEpisodesPerSec);
  return {
    spadeVsFixed: median(spade.map((x) => x.agentEpisodesPerSec)) / median(fixed.map((x) => x.agentEpisodesPerSec)),
    updatesSpadeVsFixed: median(spade.map((x) => x.updatesPerMin)) / median(fixed.map((x) => x.updatesPerMin)),
    pairs,
  };
}
