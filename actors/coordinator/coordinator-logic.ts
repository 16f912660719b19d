// The coordinator's logic, with no I/O and no clock: transition(state, event) → (state, effects). Events are what
// the host's subscriptions and timers delivered (a policy version, an environment accepted or rejected, a labeled
// batch, a metric, a tick, the time budget) and what an effect reported (design jobs issued); effects are what the
// driver (coordinator-actor.ts) does: publish design jobs, append to the archive and metrics.jsonl, draw the view,
// ask the host to stop. The schedule (schedule.ts) and the stats folding (run-stats.ts) it uses are pure as well.
import type { DesignJob, EnvAccepted, EnvRejected, LabeledBatch } from '../loop/messages.js';
import type { Metric } from '../../runtime/message-types.js';
import type { MessageType } from '../../runtime/messages.js';
import { onAccepted, onLabeled, onMetric, onRejected, summary, type RunStats } from './run-stats.js';
import { renderView } from './run-view.js';
import { issuable, jobIds, jobSeed, minVersionFor } from './schedule.js';

type Body<M> = M extends MessageType<infer T> ? T : never;
export type ArchiveKind = 'accepted' | 'rejected' | 'evaluated';

export interface CoordinatorLimits {
  seed: number;
  designsPerIteration: number;
  maxStaleness: number;
  /** Infinity = unbounded. */
  iterations: number;
  minutes: number;
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
      return issue(s, o, out);
    case 'accepted': {
      const a = e.body;
      onAccepted(s.stats, a.iteration);
      return archive(s, out, 'accepted', { envId: a.envId, iteration: a.iteration, name: a.spec.name, family: a.family, codeHash: a.codeHash, doc: a.doc?.id, parents: a.parents, validation: a.validation }, a.code);
    }
    case 'rejected': {
      const r = e.body;
      onRejected(s.stats, r.iteration, r.stage);
      return archive(s, out, 'rejected', { envId: r.envId, iteration: r.iteration, stage: r.stage, reason: r.reason.slice(0, 500), doc: r.doc?.id });
    }
    case 'labeled': {
      const b = e.body;
      const done = onLabeled(s.stats, { iteration: b.iteration, accepted: b.accepted, regret: b.regret, returnHint: b.returnHint, returnNoHint: b.returnNoHint, trajectories: b.trajectories.length }, o.designsPerIteration);
      if (b.accepted) archive(s, out, 'evaluated', { envId: b.envId, iteration: b.iteration, regret: b.regret, returnHint: b.returnHint, returnNoHint: b.returnNoHint, feasible: b.feasible, designerReward: b.designerReward });
      if (!done) return;
      out.push(metrics(s, 'iteration', e.now));
      if (s.stats.iterationsDone >= o.iterations) finish(s, o, out, `${s.stats.iterationsDone} iterations done`, e.now);
      return;
    }
    case 'metric':
      return onMetric(s.stats, e.body);
    case 'issued':
      s.issuing = false;
      s.nextIteration = Math.max(s.nextIteration, e.next);
      s.stats.iterationsIssued = s.nextIteration;
      if (e.error !== undefined) return void out.push({ type: 'log', line: `cannot issue design jobs: ${e.error} (will retry on the next event)` });
      return issue(s, o, out); // the version may have moved while publishing
    case 'viewTick':
      return void out.push({ type: 'view', text: renderView(s.stats, e.now, o) });
    case 'metricsTick':
      return void out.push(metrics(s, 'tick', e.now));
    case 'timeUp':
      return finish(s, o, out, `${o.minutes} minutes elapsed`, e.now);
    case 'stop':
      s.finished = true;
      return void out.push(metrics(s, 'stop', e.now));
  }
}

/** The iterations the schedule allows now, as design jobs (none while an issue is in progress or after the end). */
export function issue(s: CoordinatorState, o: CoordinatorLimits, out: CoordinatorEffect[]): void {
  if (s.finished || s.issuing) return;
  const its = issuable({ nextIteration: s.nextIteration, policyVersion: s.stats.policyVersion, baseVersion: s.baseVersion }, o);
  if (its.length === 0) return;
  s.issuing = true;
  out.push({
    type: 'issue',
    iterations: its.map((i) => ({
      iteration: i,
      jobs: jobIds(s.runId, i, o.designsPerIteration).map((jobId, j) => ({ jobId, iteration: i, seed: jobSeed(o.seed, i, j), minPolicyVersion: minVersionFor(i, s.baseVersion, o.maxStaleness) })),
    })),
  });
}

function archive(s: CoordinatorState, out: CoordinatorEffect[], kind: ArchiveKind, record: Record<string, unknown>, code?: string): void {
  const key = `${kind}:${record.envId}`;
  if (s.archived.has(key)) return;
  s.archived.add(key);
  out.push(code === undefined ? { type: 'archive', kind, record } : { type: 'archive', kind, record, code });
}

function metrics(s: CoordinatorState, event: string, now: number): CoordinatorEffect {
  return { type: 'metrics', line: { event, ...summary(s.stats, now) } };
}

function finish(s: CoordinatorState, o: CoordinatorLimits, out: CoordinatorEffect[], reason: string, now: number): void {
  if (s.finished) return;
  s.finished = true;
  out.push(metrics(s, 'final', now), { type: 'view', text: renderView(s.stats, now, o) }, { type: 'shutdown', reason });
}
