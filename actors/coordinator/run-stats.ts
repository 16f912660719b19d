// Pure fold of the run's events into the figures the live view, metrics.jsonl and tests read.
import type { Metric } from '../../runtime/message-types.js';

type MetricBody = typeof Metric extends import('../../runtime/messages.js').MessageType<infer T> ? T : never;

export interface IterationStats {
  iteration: number;
  proposed: number;
  accepted: number;
  rejected: number;
  labeled: number;
  regretSum: number;
  returnHintSum: number;
  returnNoHintSum: number;
  evaluated: number;
}

export interface RunStats {
  startedAt: number;
  iterationsIssued: number;
  iterationsDone: number;
  proposed: number;
  accepted: number;
  rejected: number;
  rejectedByStage: Record<string, number>;
  labeledBatches: number;
  trajectories: number;
  evaluated: number;
  regretSum: number;
  returnHintSum: number;
  returnNoHintSum: number;
  policyVersion: number;
  /** From learner metrics when present. */
  learner: { updates: number; stalenessMean: number; stalenessMax: number; stalenessP99: number; stalenessSamples: number; dropped: number; busyFraction: number; loss: number };
  perIteration: Map<number, IterationStats>;
}

export function emptyStats(now: number): RunStats {
  return {
    startedAt: now,
    iterationsIssued: 0,
    iterationsDone: 0,
    proposed: 0,
    accepted: 0,
    rejected: 0,
    rejectedByStage: {},
    labeledBatches: 0,
    trajectories: 0,
    evaluated: 0,
    regretSum: 0,
    returnHintSum: 0,
    returnNoHintSum: 0,
    policyVersion: 0,
    learner: { updates: 0, stalenessMean: 0, stalenessMax: 0, stalenessP99: 0, stalenessSamples: 0, dropped: 0, busyFraction: 0, loss: 0 },
    perIteration: new Map(),
  };
}

function iter(s: RunStats, i: number): IterationStats {
  let it = s.perIteration.get(i);
  if (!it) {
    it = { iteration: i, proposed: 0, accepted: 0, rejected: 0, labeled: 0, regretSum: 0, returnHintSum: 0, returnNoHintSum: 0, evaluated: 0 };
    s.perIteration.set(i, it);
  }
  return it;
}

export function onAccepted(s: RunStats, iteration: number): void {
  s.proposed++;
  s.accepted++;
  const it = iter(s, iteration);
  it.proposed++;
  it.accepted++;
}

export function onRejected(s: RunStats, iteration: number, stage: string): void {
  s.proposed++;
  s.rejected++;
  s.rejectedByStage[stage] = (s.rejectedByStage[stage] ?? 0) + 1;
  const it = iter(s, iteration);
  it.proposed++;
  it.rejected++;
}

export interface LabeledSummary {
  iteration: number;
  accepted: boolean;
  regret?: number;
  returnHint?: number;
  returnNoHint?: number;
  trajectories: number;
}

/** Returns true when this batch completed its iteration (all its design jobs labeled). */
export function onLabeled(s: RunStats, b: LabeledSummary, designsPerIteration: number): boolean {
  s.labeledBatches++;
  s.trajectories += b.trajectories;
  const it = iter(s, b.iteration);
  it.labeled++;
  if (b.accepted && b.regret !== undefined) {
    s.evaluated++;
    it.evaluated++;
    s.regretSum += b.regret;
    it.regretSum += b.regret;
    s.returnHintSum += b.returnHint ?? 0;
    it.returnHintSum += b.returnHint ?? 0;
    s.returnNoHintSum += b.returnNoHint ?? 0;
    it.returnNoHintSum += b.returnNoHint ?? 0;
  }
  if (it.labeled === designsPerIteration) {
    s.iterationsDone++;
    return true;
  }
  return false;
}

export function onMetric(s: RunStats, m: MetricBody): void {
  if (m.role !== 'learner') return;
  const l = s.learner;
  if (m.name === 'updates') l.updates = m.value;
  // The learner reports each update's mean; the run's is the mean over updates.
  else if (m.name === 'staleness.mean') l.stalenessMean += (m.value - l.stalenessMean) / ++l.stalenessSamples;
  else if (m.name === 'staleness.max') l.stalenessMax = Math.max(l.stalenessMax, m.value);
  else if (m.name === 'staleness.p99') l.stalenessP99 = m.value;
  else if (m.name === 'dropped') l.dropped = m.value;
  else if (m.name === 'busy.fraction') l.busyFraction = m.value;
  else if (m.name === 'loss') l.loss = m.value;
}

const mean = (sum: number, n: number) => (n > 0 ? sum / n : NaN);

/** One flat summary record (a line of metrics.jsonl, the final JSON of a run). */
export function summary(s: RunStats, now: number) {
  const secs = Math.max(1e-9, (now - s.startedAt) / 1000);
  return {
    ts: now,
    elapsedSec: Number(secs.toFixed(1)),
    iterationsIssued: s.iterationsIssued,
    iterationsDone: s.iterationsDone,
    proposed: s.proposed,
    accepted: s.accepted,
    rejected: s.rejected,
    rejectedByStage: s.rejectedByStage,
    meanRegret: mean(s.regretSum, s.evaluated),
    meanReturnHint: mean(s.returnHintSum, s.evaluated),
    meanReturnNoHint: mean(s.returnNoHintSum, s.evaluated),
    policyVersion: s.policyVersion,
    learner: s.learner,
    trajectories: s.trajectories,
    trajectoriesPerSec: s.trajectories / secs,
  };
}
