// The learner's counters and per-update report, and their publication as Metric messages on spade.metrics.learner.
import type { Connection } from '../../runtime/connection.js';
import { Metric } from '../../runtime/message-types.js';
import { encode } from '../../runtime/messages.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import type { LearnerState } from './learner-checkpoint.js';
import type { UpdateStats } from './policy-trainer.js';

export interface LearnerStats extends LearnerState {
  origin: 'resume' | 'init-checkpoint' | 'fresh' | 'group';
  droppedStale: number;
  droppedInvalid: number;
  /** Applied trajectories with a zero advantage, whose compute was skipped (skipZeroAdvantage). */
  skipped: number;
  /** Trajectories seen again (redelivery or a republished batch) and skipped. */
  duplicates: number;
  trainedTokens: number;
  /** Time inside updates (scoring, gradients, optimizer), for the busy fraction. */
  computeMs: number;
  startedAt: number;
  stalenessMax: number;
  /** Versions this learner process published, in order. */
  published: number[];
  /** Applied trajectories by staleness: stalenessHistogram[lag] (lag in versions at update time). */
  stalenessHistogram: number[];
  /** The report of the latest update. */
  last?: UpdateReport;
  /** Set when an update failed and the learner stopped. */
  error?: string;
}

export interface UpdateReport extends UpdateStats {
  update: number;
  /** The version the update was admitted against (the weights' version before this update's publish). */
  version: number;
  trajectories: number;
  stalenessMean: number;
  stalenessMax: number;
}

/** The q-quantile of the staleness of every applied trajectory (0 before any). */
export function stalenessQuantile(s: Pick<LearnerStats, 'stalenessHistogram'>, q: number): number {
  const total = s.stalenessHistogram.reduce((a, b) => a + (b ?? 0), 0);
  let seen = 0;
  for (let lag = 0; lag < s.stalenessHistogram.length; lag++) {
    seen += s.stalenessHistogram[lag] ?? 0;
    if (seen >= q * total && seen > 0) return lag;
  }
  return 0;
}

export function busyFraction(s: LearnerStats, now = Date.now()): number {
  return s.computeMs / Math.max(1, now - s.startedAt);
}

export async function publishLearnerMetrics(conn: Connection, host: string, s: LearnerStats, r: UpdateReport): Promise<void> {
  // Dotted names, as the coordinator's run view reads them (actors/coordinator/run-stats.ts).
  const values: Record<string, number> = {
    updates: s.updates, version: s.version, loss: r.loss, 'clip.fraction': r.clipFraction, 'tis.fraction': r.tisFraction,
    'mean.ratio': r.meanRatio, 'grad.norm': r.gradNorm, lr: r.lr, tokens: r.tokens, 'tokens.per_s': (r.tokens * 1000) / Math.max(1e-3, r.computeMs),
    'staleness.mean': r.stalenessMean, 'staleness.max': r.stalenessMax, 'staleness.p99': stalenessQuantile(s, 0.99), dropped: s.dropped,
    'dropped.stale': s.droppedStale, skipped: s.skipped, 'busy.fraction': busyFraction(s), applied: s.applied,
  };
  if (r.kl !== undefined) values.kl = r.kl; // with objective.klBeta: the mean k3 estimate to the start weights
  // Per role, when the update trained tokens of that role: its tokens, its token-mean loss, its entropy estimate.
  for (const role of ['designer', 'agent'] as const) {
    const x = r.byRole?.[role];
    if (!x || x.tokens === 0) continue;
    values[`tokens.${role}`] = x.tokens;
    values[`loss.${role}`] = x.loss;
    values[`entropy.${role}`] = x.entropy;
  }
  const ts = Date.now();
  await Promise.all(Object.entries(values).map(([name, value]) =>
    conn.js.publish(SUBJECTS.metrics('learner'), encode(Metric, { role: 'learner', host, ts, name, value, tags: { update: String(r.update) } }), {
      // The version too: after a crash the same update number is redone at a newer version and must not be deduplicated.
      msgID: `metric:learner:${host}:${r.update}:${r.version}:${name}`,
    })));
}
