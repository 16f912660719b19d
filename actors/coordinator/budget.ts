// The policy-token budget of a run, pure: how many more iterations may be issued so that the run ends as near its
// budget as whole iterations allow, and which learning-curve points the tokens spent so far have reached.
//
// Compute is counted in policy tokens: every token either role sampled (as the designer and agent jobs report them)
// plus every token the learner trained on. An iteration is the unit of issue, so a run cannot stop mid-iteration; the coordinator issues
// iteration n only while the projection (tokens spent + the ones still owed by iterations in flight, at the mean cost
// of a finished iteration) stays within half an iteration's cost of the budget, so arms of an experiment end within
// about half an iteration of the same total (iterations in flight may cost more or less than the mean), whatever an
// iteration of theirs costs.
import { spentTokens, type RunStats } from './run-stats.js';

export interface BudgetLimits {
  /** Policy tokens (sampled + trained) the run may spend; Infinity = unbounded. */
  budgetTokens?: number;
  /** Learning-curve points: snapshots of the learner's checkpoint at budget fractions 1/n .. (n−1)/n; 0 = none. */
  curvePoints?: number;
}

const budgetOf = (o: BudgetLimits): number => o.budgetTokens ?? Infinity;

/** The mean cost of one finished iteration, sampled and trained (null before one has finished). */
export function iterationCost(s: RunStats): { sampled: number; trained: number } | null {
  const done = s.iterationsDone;
  if (done === 0) return null;
  const sampled = s.tokens.sampledDone / done;
  // The learner makes about one update per iteration (iteration-aligned mode); until one is counted, assume it trains
  // what was sampled (an upper bound: hinted episodes and zero-advantage trajectories are not trained).
  const trained = s.tokens.trainedUpdates > 0 ? s.tokens.trained / s.tokens.trainedUpdates : sampled;
  return { sampled, trained };
}

/** The sampled counts cover at least what the labeled batches hold. */
export function sampledCaughtUp(s: RunStats): boolean {
  const t = s.tokens;
  return t.sampledDesigner >= t.labeledDesigner && t.sampledAgent >= t.labeledAgent;
}

/** How many iterations past `nextIteration` the budget lets the coordinator issue now (Infinity without a budget). */
export function budgetAllows(s: RunStats, nextIteration: number, o: BudgetLimits): number {
  const budget = budgetOf(o);
  if (!Number.isFinite(budget)) return Infinity;
  const spent = spentTokens(s);
  if (spent >= budget) return 0;
  // Samples reach the labeled batches only after their job reported them; fewer reported than labeled means the
  // metrics stream lags the others (a resumed coordinator replaying them): wait rather than issue on a low count.
  if (!sampledCaughtUp(s)) return 0;
  const inFlight = Math.max(0, nextIteration - s.iterationsDone);
  const cost = iterationCost(s);
  // Nothing to estimate from yet: one iteration at a time until the first is done.
  if (cost === null) return inFlight === 0 ? 1 : 0;
  const perIteration = cost.sampled + cost.trained;
  if (perIteration <= 0) return 1;
  // Still to come: the training of finished iterations not yet counted, and each iteration in flight at the mean
  // cost less what it has already sampled.
  const owed = Math.max(0, s.iterationsDone - s.tokens.trainedUpdates) * cost.trained;
  const inFlightSampled = s.tokens.sampledDesigner + s.tokens.sampledAgent - s.tokens.sampledDone;
  const fits = Math.floor((budget + perIteration / 2 - spent - owed + inFlightSampled) / perIteration);
  return Math.max(0, fits - inFlight);
}

/** Curve points (1 .. curvePoints − 1) reached by `spent` and not yet taken; the last point is the final checkpoint. */
export function curveDue(spent: number, o: BudgetLimits, taken: ReadonlySet<number>): number[] {
  const budget = budgetOf(o), n = o.curvePoints ?? 0;
  if (!Number.isFinite(budget) || n < 2) return [];
  const due: number[] = [];
  for (let j = 1; j < n; j++) if (!taken.has(j) && spent >= (j / n) * budget) due.push(j);
  return due;
}
