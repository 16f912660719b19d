// Replays of accepted environments (loop.replay): a share of each iteration's design jobs play an environment the
// designer wrote earlier instead of asking for a new one, as PLR and ACCEL replay levels from their buffer. Why:
// a design costs the designer a ~730-token module, and its rollout gives the agent 2k short episodes, so without
// replays most sampled tokens are the designer's (88% in a 3-minute run), and an environment whose solve rate sits
// in band is played once and dropped. The buffer (level-buffer.ts) keeps the evaluated designs per family, scored
// by SFL's learnability of their latest no-hint solve rate, p(1 − p); a replay draw mixes that score with
// staleness. Pure: the coordinator's logic feeds it the accepted and labeled events and asks it for picks.
import { makeRandom } from '../../sandbox/index.js';
import { LevelBuffer, learnabilityOf, type Level } from './level-buffer.js';

export interface ReplayOptions {
  /** Share of design jobs that replay a buffered environment (0: none). */
  rate: number;
  perFamily: number;
  staleness: number;
  emaRate: number;
}

export interface ReplayLevel extends Level {
  code: string;
  /** The latest no-hint mean return. */
  returnNoHint: number;
}

/** What a replay job carries: the environment to play again. */
export interface ReplayPick {
  envId: string;
  family: string;
  code: string;
}

export class ReplayBuffer {
  readonly levels: LevelBuffer<ReplayLevel>;
  /** Accepted designs not evaluated yet, and evaluations whose acceptance has not been seen yet (the two streams are
   *  read apart, so on a resume either may come first). */
  private readonly accepted = new Map<string, { family: string; code: string }>();
  private readonly early = new Map<string, { returnNoHint: number; iteration: number }>();

  constructor(readonly options: ReplayOptions) {
    this.levels = new LevelBuffer<ReplayLevel>({ perGroup: options.perFamily, staleness: options.staleness, emaRate: options.emaRate });
  }

  /** A designed environment was accepted (library picks and replays are not buffered). */
  onAccepted(envId: string, family: string, code: string): void {
    const early = this.early.get(envId);
    if (early) {
      this.early.delete(envId);
      this.add(envId, family, code, early.returnNoHint, early.iteration);
    } else this.accepted.set(envId, { family, code });
  }

  /** An environment was evaluated: `replayOf` when a replay played it, else its own envId. */
  onEvaluated(envId: string, returnNoHint: number, iteration: number, replayOf?: string): void {
    if (replayOf !== undefined) {
      const e = this.levels.visit(replayOf, learnabilityOf(returnNoHint), iteration);
      if (e) e.returnNoHint = returnNoHint;
      return;
    }
    const a = this.accepted.get(envId);
    if (!a) return void this.early.set(envId, { returnNoHint, iteration });
    this.accepted.delete(envId);
    this.add(envId, a.family, a.code, returnNoHint, iteration);
  }

  private add(envId: string, family: string, code: string, returnNoHint: number, iteration: number): void {
    this.levels.insert({ key: envId, group: family, root: false, score: NaN, visits: 0, lastVisit: -1, code, returnNoHint });
    this.levels.visit(envId, learnabilityOf(returnNoHint), iteration);
    this.levels.evict();
  }

  /**
   * The replays of one iteration's jobs (null: the job designs). Each job replays with probability `rate`, drawn
   * from its own seed; the picks of one iteration are distinct, and a pick counts as a visit at once (its staleness
   * restarts) so that the next iterations look elsewhere until its evaluation comes in. A job replays only once the
   * buffer holds an evaluated design, so the first iterations design.
   */
  picks(iteration: number, seeds: readonly number[]): Array<ReplayPick | null> {
    const taken = new Set<string>();
    return seeds.map((seed) => {
      const random = makeRandom((seed ^ 0x2545f491) >>> 0);
      if (this.options.rate <= 0 || random() >= this.options.rate) return null;
      const pool = [...this.levels.entries.values()].filter((e) => e.visits > 0 && !taken.has(e.key));
      const e = this.levels.pick(1, iteration, random, pool)[0];
      if (!e) return null;
      taken.add(e.key);
      e.lastVisit = Math.max(e.lastVisit, iteration);
      return { envId: e.key, family: e.group, code: e.code };
    });
  }
}
