// The budget of a run, pure: how many more iterations may be issued so that the run ends as near its budget as whole
// iterations allow, and which learning-curve points what was spent so far has reached.
//
// A budget is counted in one of two units. Policy tokens (run.budgetTokens): every token either role sampled (as the
// designer and agent jobs report them) plus every token the learner trained on. Agent episodes (run.budgetEpisodes):
// every episode the agent played, hinted ones included, so arms are compared at equal agent experience whatever their
// designer spent (experiments report the tokens and wall-clock beside). An iteration is the unit of issue, so a run cannot stop mid-iteration.
// Far from the budget the coordinator issues what the projection allows (tokens spent, plus what is owed by finished
// iterations not yet trained and by iterations in flight, at the latest iterations' cost); in the last η + 2
// iterations it issues one at a time on final counts, and the last only while at least half an iteration's cost is
// left. So a run ends within about half an iteration of its budget whatever an iteration of it costs.
import type { RunStats } from './run-stats.js';
import { spentTokens } from './run-summary.js';

export interface BudgetLimits {
  /** Policy tokens (sampled + trained) the run may spend; Infinity = unbounded. */
  budgetTokens?: number;
  /** Agent episodes the run may play (hinted included); Infinity = unbounded. At most one of the two is finite. */
  budgetEpisodes?: number;
  /** Learning-curve points: snapshots of the learner's checkpoint at budget fractions 1/n .. (n−1)/n; 0 = none. */
  curvePoints?: number;
  /** η: how many iterations may be in flight (the endgame starts this many iterations plus two before the budget). */
  maxStaleness?: number;
}

export type BudgetUnit = 'tokens' | 'episodes';

/** The run's budget and its unit (Infinity when it has none). */
export function budgetOf(o: BudgetLimits): { limit: number; unit: BudgetUnit } {
  const episodes = o.budgetEpisodes ?? Infinity;
  return Number.isFinite(episodes) ? { limit: episodes, unit: 'episodes' } : { limit: o.budgetTokens ?? Infinity, unit: 'tokens' };
}

export const hasBudget = (o: BudgetLimits): boolean => Number.isFinite(budgetOf(o).limit);

/** What the run has spent in its budget's unit. */
export function spentOf(s: RunStats, o: BudgetLimits): number {
  return budgetOf(o).unit === 'episodes' ? s.agentEpisodes : spentTokens(s);
}

/** The budget in words, for the log and the end reason. */
export function budgetWords(o: BudgetLimits): string {
  const b = budgetOf(o);
  return `${b.limit} ${b.unit === 'episodes' ? 'agent episodes' : 'policy tokens'}`;
}

const mean = (xs: readonly number[]): number => xs.reduce((x, y) => x + y, 0) / xs.length;

/** The cost of one iteration, sampled and trained, from the latest ones (null before one has finished). */
export function iterationCost(s: RunStats): { sampled: number; trained: number } | null {
  const done = s.iterationsDone;
  if (done === 0) return null;
  const r = s.recentCost;
  const sampled = r.sampled.length ? mean(r.sampled) : s.tokens.sampledDone / done;
  // The learner makes about one update per iteration (iteration-aligned mode); until one is counted, assume it trains
  // what was sampled (an upper bound: hinted episodes and zero-advantage trajectories are not trained).
  const trained = r.trained.length ? mean(r.trained) : sampled;
  return { sampled, trained };
}

/** The agent episodes of one iteration, from the latest ones (null before one has finished); nothing is trained. */
export function episodeCost(s: RunStats): { sampled: number; trained: number } | null {
  const done = s.iterationsDone;
  if (done === 0) return null;
  const r = s.recentCost.episodes;
  return { sampled: r.length ? mean(r) : s.agentEpisodesDone / done, trained: 0 };
}

/** The sampled counts cover at least what the labeled batches hold. */
export function sampledCaughtUp(s: RunStats): boolean {
  const t = s.tokens;
  return t.sampledDesigner >= t.labeledDesigner && t.sampledAgent >= t.labeledAgent;
}

/** Everything issued is labeled and accounted for by the learner: the tokens spent are final. */
export function settled(s: RunStats, nextIteration: number): boolean {
  const l = s.learner;
  return nextIteration === s.iterationsDone && l.applied + l.dropped >= s.trajectories
    && s.tokens.trainedUpdates >= Math.max(l.updates, l.lastReportedUpdate) && sampledCaughtUp(s);
}

/**
 * How many iterations past `nextIteration` the budget lets the coordinator issue now (Infinity without a budget).
 * Far from the budget it issues what fits at the estimated cost, so sampling keeps running ahead of the learner; within
 * (η + 2) iterations of it, one iteration at a time and only on final counts (nothing in flight, the learner's count
 * in), so the last decisions rest on what was spent, not on estimates.
 */
export function budgetAllows(s: RunStats, nextIteration: number, o: BudgetLimits, assumeSettled = false): number {
  const { limit: budget, unit } = budgetOf(o);
  if (!Number.isFinite(budget)) return Infinity;
  const spent = spentOf(s, o);
  if (spent >= budget) return 0;
  // Samples reach the labeled batches only after their job reported them; fewer reported than labeled means the
  // metrics stream lags the others (a resumed coordinator replaying them): wait rather than issue on a low count.
  if (!sampledCaughtUp(s)) return 0;
  const inFlight = Math.max(0, nextIteration - s.iterationsDone);
  const cost = unit === 'episodes' ? episodeCost(s) : iterationCost(s);
  // Nothing to estimate from yet: one iteration at a time until the first is done.
  if (cost === null) return inFlight === 0 ? 1 : 0;
  const perIteration = cost.sampled + cost.trained;
  if (perIteration <= 0) return 1;
  // Still to come: the training of finished iterations not yet counted (tokens only), and each iteration in flight
  // at the estimated cost less what it has already sampled.
  const owed = Math.max(0, s.iterationsDone - s.tokens.trainedUpdates) * cost.trained;
  const inFlightSampled = unit === 'episodes' ? s.agentEpisodes - s.agentEpisodesDone : s.tokens.sampledDesigner + s.tokens.sampledAgent - s.tokens.sampledDone;
  const left = budget - spent - owed + inFlightSampled - inFlight * perIteration;
  if (left < ((o.maxStaleness ?? 2) + 2) * perIteration) {
    // When the endgame stops waiting for a slow learner (assumeSettled: on a loaded machine the last iteration's
    // update can take longer than SETTLE_WAIT_MS), the tokens it still owes count as spent.
    if (settled(s, nextIteration)) return budget - spent >= perIteration / 2 ? 1 : 0;
    return assumeSettled && nextIteration === s.iterationsDone && budget - spent - owed >= perIteration / 2 ? 1 : 0;
  }
  return Math.max(0, Math.floor((left + perIteration / 2) / perIteration));
}

/** Curve points (1 .. curvePoints − 1) reached by `spent` and not yet taken; the last point is the final checkpoint. */
export function curveDue(spent: number, o: BudgetLimits, taken: ReadonlySet<number>): number[] {
  const budget = budgetOf(o).limit, n = o.curvePoints ?? 0;
  if (!Number.isFinite(budget) || n < 2) return [];
  const due: number[] = [];
  for (let j = 1; j < n; j++) if (!taken.has(j) && spent >= (j / n) * budget) due.push(j);
  return due;
}
