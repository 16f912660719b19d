// The coordinator's logic, with no I/O and no clock: transition(state, event) → (state, effects). Events are what
// the host's subscriptions and timers delivered (a policy version, an environment accepted or rejected, a labeled
// batch, a metric, a tick, the time budget) and what an effect reported (design jobs issued); effects are what the
// driver (coordinator-actor.ts) does: publish design jobs, append to the archive and metrics.jsonl, draw the view,
// ask the host to stop. The schedule (schedule.ts) and the stats folding (run-stats.ts) it uses are pure as well.
import type { DesignJob, EnvAccepted, EnvRejected, LabeledBatch } from '../loop/messages.js';
import type { Metric } from '../../runtime/message-types.js';
import type { MessageType } from '../../runtime/messages.js';
import { budgetAllows, budgetWords, curveDue, hasBudget, sampledCaughtUp, settled, spentOf, type BudgetLimits } from './budget.js';
import type { ReplayBuffer } from './replay.js';
import { onAccepted, onLabeled, onMetric, onNovelty, onRejected, onReplayed, type NoveltyScore, type RunStats } from './run-stats.js';
import { iterationSummary, spentTokens, summary } from './run-summary.js';
import { renderView } from './run-view.js';
import { issuable, jobIds, jobSeed, minVersionFor } from './schedule.js';

type Body<M> = M extends MessageType<infer T> ? T : never;
/** `replayed`: a replay's evaluation (loop.replay), apart from the designs' records so that their figures stay the designer's. */
export type ArchiveKind = 'accepted' | 'rejected' | 'evaluated' | 'replayed';

export interface CoordinatorLimits extends BudgetLimits {
  seed: number;
  designsPerIteration: number;
  maxStaleness: number;
  /** Infinity = unbounded. */
  iterations: number;
  minutes: number;
}

/** Scores accepted environments in acceptance order (eval/novelty.ts NoveltyIndex, injected by the composition root). */
export interface NoveltyScorer {
  accept(envId: string, code: string): NoveltyScore & { nearestLibrary?: string | null; nearestAccepted?: string | null };
}

export interface CoordinatorState {
  stats: RunStats;
  runId: string;
  nextIteration: number;
  baseVersion: number;
  /** Design jobs are being published (one issue at a time, so iterations go out in order). */
  issuing: boolean;
  finished: boolean;
  /** `<kind>:<envId>` of every archived record (restored from the archive on resume). */
  archived: Set<string>;
  /** Novelty of each accepted environment; absent = not measured. */
  novelty?: NoveltyScorer;
  /** envIds already scored (a stream replay must not score one twice). */
  scored?: Set<string>;
  /** The budget is spent and nothing is in flight: the run ends once the learner has counted its last update. */
  budgetSpent?: { since: number };
  /** Since when nothing is in flight but the learner's counts do not add up yet (budget endgame). */
  settleWait?: number;
  /** Learning-curve points (1 .. curvePoints − 1) already snapshotted. */
  curveTaken?: Set<number>;
  /** The level buffer replays are drawn from (loop.replay); absent = every job designs. */
  replay?: ReplayBuffer;
}

type At = { now: number };
export type CoordinatorEvent = At & (
  | { type: 'policyVersion'; version: number }
  | { type: 'accepted'; body: Body<typeof EnvAccepted> }
  | { type: 'rejected'; body: Body<typeof EnvRejected> }
  | { type: 'labeled'; body: Body<typeof LabeledBatch> }
  | { type: 'metric'; body: Body<typeof Metric> }
  /** Design jobs through iteration `next - 1` are published (and next_iteration saved); `error` when it stopped early. */
  | { type: 'issued'; next: number; error?: string }
  | { type: 'viewTick' }
  | { type: 'metricsTick' }
  | { type: 'timeUp' }
  | { type: 'stop' }
);

export type CoordinatorEffect =
  | { type: 'issue'; iterations: Array<{ iteration: number; jobs: Array<Body<typeof DesignJob>> }> }
  | { type: 'archive'; kind: ArchiveKind; record: Record<string, unknown>; code?: string }
  | { type: 'metrics'; line: Record<string, unknown> }
  | { type: 'view'; text: string }
  | { type: 'log'; line: string }
  /** Copy the learner's latest checkpoint: learning-curve point `point` of `of` (its budget fraction is point/of). */
  | { type: 'snapshot'; point: number; of: number; tokens: number }
  | { type: 'shutdown'; reason: string };

export function transition(s: CoordinatorState, e: CoordinatorEvent, o: CoordinatorLimits): { state: CoordinatorState; effects: CoordinatorEffect[] } {
  const out: CoordinatorEffect[] = [];
  step(s, e, o, out);
  return { state: s, effects: out };
}

function step(s: CoordinatorState, e: CoordinatorEvent, o: CoordinatorLimits, out: CoordinatorEffect[]): void {
  switch (e.type) {
    case 'policyVersion':
      if (e.version <= s.stats.policyVersion) return;
      s.stats.policyVersion = e.version;
      return issue(s, o, out, e.now);
    case 'accepted': {
      const a = e.body;
      // A replay is not a design: it counts apart, and its code is already archived under the environment it replays.
      if (a.replayOf !== undefined) return onReplayed(s.stats, a.iteration);
      onAccepted(s.stats, a.iteration, a.grounding);
      if (a.designer) s.replay?.onAccepted(a.envId, a.family, a.code);
      let novelty: Record<string, unknown> | undefined;
      if (s.novelty && !(s.scored ??= new Set()).has(a.envId)) {
        s.scored.add(a.envId);
        const r = s.novelty.accept(a.envId, a.code);
        onNovelty(s.stats, a.iteration, r);
        novelty = { novel: r.novel, libraryCopyOf: r.libraryCopyOf, librarySimilarity: round(r.maxLibrarySimilarity), acceptedSimilarity: round(r.maxAcceptedSimilarity), nearestLibrary: r.nearestLibrary ?? null, nearestAccepted: r.nearestAccepted ?? null, newStructure: r.newStructure, libraryStructure: round(r.maxLibraryStructure), acceptedStructure: round(r.maxAcceptedStructure) };
      }
      return archive(s, out, 'accepted', { envId: a.envId, iteration: a.iteration, name: a.spec.name, family: a.family, codeHash: a.codeHash, doc: a.doc?.id, parents: a.parents, validation: a.validation, ...(a.grounding ? { grounding: a.grounding } : {}), ...(novelty ? { novelty } : {}) }, a.code);
    }
    case 'rejected': {
      const r = e.body;
      onRejected(s.stats, r.iteration, r.stage);
      return archive(s, out, 'rejected', { envId: r.envId, iteration: r.iteration, stage: r.stage, reason: r.reason.slice(0, 500), doc: r.doc?.id });
    }
    case 'labeled': {
      const b = e.body;
      const done = onLabeled(s.stats, {
        iteration: b.iteration, accepted: b.accepted, regret: b.regret, returnHint: b.returnHint, returnNoHint: b.returnNoHint, feasible: b.feasible,
        designerReward: b.designerReward, trajectories: b.trajectories.length, ...labeledTokens(b), ...(b.replayOf !== undefined ? { replayOf: b.replayOf } : {}),
      }, o.designsPerIteration);
      if (b.accepted && b.returnNoHint !== undefined) s.replay?.onEvaluated(b.envId, b.returnNoHint, b.iteration, b.replayOf);
      const evaluation = { envId: b.envId, iteration: b.iteration, regret: b.regret, returnHint: b.returnHint, returnNoHint: b.returnNoHint, feasible: b.feasible };
      if (b.replayOf !== undefined) archive(s, out, 'replayed', { ...evaluation, replayOf: b.replayOf });
      else if (b.accepted) archive(s, out, 'evaluated', { ...evaluation, designerReward: b.designerReward });
      if (!done) return;
      out.push({ type: 'metrics', line: { event: 'iteration', ...summary(s.stats, e.now), iteration: iterationSummary(s.stats, b.iteration) } });
      if (s.stats.iterationsDone >= o.iterations) return finish(s, o, out, `${s.stats.iterationsDone} iterations done`, e.now);
      return budgetStep(s, o, out, e.now); // a finished iteration refines the budget's cost estimate
    }
    case 'metric':
      onMetric(s.stats, e.body);
      if (e.body.role === 'learner' && e.body.name === 'tokens')
        for (const point of curveDue(spentOf(s.stats, o), o, (s.curveTaken ??= new Set()))) {
          s.curveTaken.add(point);
          out.push({ type: 'snapshot', point, of: o.curvePoints ?? 0, tokens: spentTokens(s.stats) });
        }
      // Any count may be the one the budget's endgame waits for (an update's metrics arrive in any order).
      return budgetStep(s, o, out, e.now);
    case 'issued':
      s.issuing = false;
      s.nextIteration = Math.max(s.nextIteration, e.next);
      s.stats.iterationsIssued = s.nextIteration;
      if (e.error !== undefined) return void out.push({ type: 'log', line: `cannot issue design jobs: ${e.error} (will retry on the next event)` });
      return issue(s, o, out, e.now); // the version may have moved while publishing
    case 'viewTick':
      return void out.push({ type: 'view', text: renderView(s.stats, e.now, o) });
    case 'metricsTick':
      out.push(metrics(s, 'tick', e.now));
      return budgetStep(s, o, out, e.now); // a budget stop waiting for the learner's last count gives up after a while
    case 'timeUp':
      return finish(s, o, out, `${o.minutes} minutes elapsed`, e.now);
    case 'stop':
      s.finished = true;
      return void out.push(metrics(s, 'stop', e.now));
  }
}

/** Only a run with a budget issues (or ends) on token counts; without one the schedule moves on versions alone. */
function budgetStep(s: CoordinatorState, o: CoordinatorLimits, out: CoordinatorEffect[], now: number): void {
  if (hasBudget(o)) issue(s, o, out, now);
}

/** How long a spent budget waits for the learner to account for the last iteration before the run ends anyway. */
export const BUDGET_DRAIN_MS = 30_000;
/** How long the endgame waits for the learner's counts to add up before it issues on what it has. */
export const SETTLE_WAIT_MS = 10_000;

/**
 * The iterations the schedule and the budget allow now, as design jobs (none while an issue is in progress or after
 * the end). With a budget, once nothing more may be issued and nothing is in flight, the run ends as soon as the
 * learner has reported every iteration's update (so the last trained tokens are in the final line).
 */
export function issue(s: CoordinatorState, o: CoordinatorLimits, out: CoordinatorEffect[], now = 0): void {
  if (s.finished || s.issuing) return;
  const scheduled = issuable({ nextIteration: s.nextIteration, policyVersion: s.stats.policyVersion, baseVersion: s.baseVersion }, o);
  // The learner reports a trajectory dropped on arrival only with its next update: when nothing is in flight and its
  // counts still do not add up after SETTLE_WAIT_MS, the endgame goes on with what it has.
  const idle = s.nextIteration === s.stats.iterationsDone && !settled(s.stats, s.nextIteration);
  if (idle) s.settleWait ??= now;
  else s.settleWait = undefined;
  const allowed = budgetAllows(s.stats, s.nextIteration, o, idle && now - s.settleWait! >= SETTLE_WAIT_MS);
  const its = scheduled.slice(0, allowed);
  if (hasBudget(o) && allowed === 0 && s.nextIteration === s.stats.iterationsDone && sampledCaughtUp(s.stats)) {
    s.budgetSpent ??= { since: now };
    // Everything labeled is applied or dropped by the learner, and every update's token count is in. (A trajectory
    // dropped on arrival is only reported with a later update, so a last iteration dropped whole waits for the timeout.)
    const counted = settled(s.stats, s.nextIteration);
    if (counted || now - s.budgetSpent.since >= BUDGET_DRAIN_MS)
      finish(s, o, out, `budget spent: ${spentOf(s.stats, o)} of ${budgetWords(o)}${counted ? '' : ' (the learner did not report its last update in time)'}`, now);
    return;
  }
  if (its.length === 0) return;
  s.budgetSpent = undefined; // trained tokens came in under the estimate: one more iteration fits
  s.issuing = true;
  out.push({
    type: 'issue',
    iterations: its.map((i) => {
      const seeds = Array.from({ length: o.designsPerIteration }, (_, j) => jobSeed(o.seed, i, j));
      const replays = s.replay?.picks(i, seeds) ?? [];
      return {
        iteration: i,
        jobs: jobIds(s.runId, i, o.designsPerIteration).map((jobId, j) => {
          const replay = replays[j];
          return { jobId, iteration: i, seed: seeds[j]!, minPolicyVersion: minVersionFor(i, s.baseVersion, o.maxStaleness), ...(replay ? { replay } : {}) };
        }),
      };
    }),
  });
}

function archive(s: CoordinatorState, out: CoordinatorEffect[], kind: ArchiveKind, record: Record<string, unknown>, code?: string): void {
  const key = `${kind}:${record.envId}`;
  if (s.archived.has(key)) return;
  s.archived.add(key);
  out.push(code === undefined ? { type: 'archive', kind, record } : { type: 'archive', kind, record, code });
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Tokens sampled by each role in a labeled batch's samples (4 bytes per packed token id). */
export function labeledTokens(b: Body<typeof LabeledBatch>): { labeledDesigner: number; labeledAgent: number } {
  let designer = 0, agent = 0;
  for (const t of b.trajectories) {
    let n = 0;
    for (const x of t.samples) n += x.tokens.byteLength / 4;
    if (t.role === 'designer') designer += n;
    else agent += n;
  }
  return { labeledDesigner: designer, labeledAgent: agent };
}

function metrics(s: CoordinatorState, event: string, now: number): CoordinatorEffect {
  return { type: 'metrics', line: { event, ...summary(s.stats, now) } };
}

function finish(s: CoordinatorState, o: CoordinatorLimits, out: CoordinatorEffect[], reason: string, now: number): void {
  if (s.finished) return;
  s.finished = true;
  out.push(metrics(s, 'final', now), { type: 'view', text: renderView(s.stats, now, o) }, { type: 'shutdown', reason });
}
