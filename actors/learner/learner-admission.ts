// The learner logic's intake (learner-logic.ts): a labeled batch's trajectories are skipped as duplicates, dropped as
// stale (past η) or invalid, or buffered as rows; a drop is final at once, and a held message is acked once every
// trajectory in it is final. Pure, like the logic.
import type { DropReason } from './accounting.js';
import { isSampleShapeError } from './errors.js';
import type { BatchIn, LearnerEffect, LearnerLogicOptions, LearnerLogicState } from './learner-state.js';
import { admitted, minVersion, rowTokens, trajectoryRows, type Row } from './rows.js';

export function receive<R>(s: LearnerLogicState<R>, ref: R, streamSeq: number, batch: BatchIn, o: LearnerLogicOptions, out: LearnerEffect<R>[]): void {
  const seen = s.iterationBatches.get(batch.iteration) ?? new Set<string>();
  s.iterationBatches.set(batch.iteration, seen.add(batch.batchId));
  const stale: string[] = [], invalid: string[] = [];
  for (const traj of batch.trajectories) {
    const id = traj.trajId;
    if (s.final.has(id) || s.unsaved.has(id) || s.inBuffer.has(id)) {
      s.stats.duplicates++;
      continue;
    }
    if (!admitted(s.stats.version, o.eta, traj)) {
      stale.push(id);
      continue;
    }
    let rows: Row[];
    try {
      rows = trajectoryRows(traj, o.model);
    } catch (err) {
      if (!isSampleShapeError(err)) throw err;
      out.push({ type: 'log', line: `learner: dropping ${err.message}` });
      invalid.push(id);
      continue;
    }
    if (rows.length === 0) invalid.push(id);
    else {
      s.buffer.push({
        trajId: id, role: traj.role, rows, tokens: rows.reduce((n, r) => n + rowTokens(r), 0), minVersion: minVersion(traj), advantage: traj.advantage,
        iteration: batch.iteration,
      });
      s.inBuffer.add(id);
    }
  }
  drop(s, 'stale', stale, out);
  drop(s, 'invalid', invalid, out);
  s.pending.push({ ref, streamSeq, ids: batch.trajectories.map((t) => t.trajId) });
  ackFinal(s, out);
}

export function drop<R>(s: LearnerLogicState<R>, reason: DropReason, ids: string[], out: LearnerEffect<R>[]): void {
  if (ids.length === 0) return;
  out.push({ type: 'drop', version: s.stats.version, reason, ids });
  for (const id of ids) s.final.add(id); // final once the drop effect (an fsynced line) is done, before any ack after it
  s.stats.dropped += ids.length;
  if (reason === 'stale') s.stats.droppedStale += ids.length;
  else s.stats.droppedInvalid += ids.length;
}

/** Acks every held message whose trajectories are all final. */
export function ackFinal<R>(s: LearnerLogicState<R>, out: LearnerEffect<R>[]): void {
  s.pending = s.pending.filter((p) => {
    if (!p.ids.every((id) => s.final.has(id))) return true;
    out.push({ type: 'ack', ref: p.ref });
    s.stats.lastStreamSeq = Math.max(s.stats.lastStreamSeq, p.streamSeq);
    return false;
  });
}
