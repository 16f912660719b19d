// The chaos soak's independent checker: it reads what the actors wrote — the labeled, raw and rejected messages in
// the streams, the dead letters, and the learner's accounting ledger from its files up to its last checkpoint — not
// their counters, and says which trajectory ids were published, applied, dropped (by reason), lost or applied twice.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliverPolicy } from '@nats-io/jetstream';
import { EnvRejected, LabeledBatch, TrajectoryGroup } from '../actors/loop/index.js';
import type { Connection } from '../runtime/connection.js';
import { DeadLetter } from '../runtime/message-types.js';
import { decode } from '../runtime/messages.js';
import { STREAMS, SUBJECTS } from '../runtime/subjects.js';

export interface TrajectoryCheck {
  /** Distinct trajectory ids in the labeled stream. */
  published: number;
  applied: number;
  dropped: number;
  droppedBy: Record<string, number>;
  lost: number;
  duplicated: number;
  /** Ids (up to 20) of lost and duplicated trajectories, and raw groups never labeled. */
  lostIds: string[];
  duplicatedIds: string[];
  unlabeledEnvs: string[];
}

/** Checks the run on `conn` against the learner's ledger in `ledgerDir` (its state directory). */
export async function checkTrajectories(conn: Connection, ledgerDir: string): Promise<TrajectoryCheck> {
  const report: TrajectoryCheck = { published: 0, applied: 0, dropped: 0, droppedBy: {}, lost: 0, duplicated: 0, lostIds: [], duplicatedIds: [], unlabeledEnvs: [] };
  const labeled = new Map<string, number>();
  const labeledEnvs = new Set<string>();
  const rawEnvs = new Set<string>();
  for (const m of await readAll(conn, STREAMS.trajectories)) {
    if (m.subject === SUBJECTS.trajLabeled) {
      const b = decode(LabeledBatch, m.data);
      labeledEnvs.add(b.envId);
      for (const tr of b.trajectories) labeled.set(tr.trajId, (labeled.get(tr.trajId) ?? 0) + 1);
    } else if (m.subject === SUBJECTS.trajRaw) rawEnvs.add(decode(TrajectoryGroup, m.data).env.envId);
  }
  for (const m of await readAll(conn, STREAMS.envs)) if (m.subject === SUBJECTS.envRejected) rawEnvs.add(decode(EnvRejected, m.data).envId);
  const dead = (await readAll(conn, STREAMS.deadLetters)).map((m) => decode(DeadLetter, m.data));
  for (const d of dead) report.droppedBy[`dead-letter ${d.role} ${d.code}`] = (report.droppedBy[`dead-letter ${d.role} ${d.code}`] ?? 0) + 1;

  const ledger = readLedger(ledgerDir);
  const applied = new Map<string, number>();
  for (const id of ledger.applied) applied.set(id, (applied.get(id) ?? 0) + 1);
  for (const [reason, ids] of Object.entries(ledger.dropped)) report.droppedBy[reason] = (report.droppedBy[reason] ?? 0) + ids.size;
  // A labeled batch the learner dead-lettered is dropped with its reason, not lost.
  for (const d of dead.filter((x) => x.subject === SUBJECTS.trajLabeled)) {
    try {
      for (const tr of decode(LabeledBatch, d.original).trajectories) (ledger.dropped[`dead-letter ${d.code}`] ??= new Set()).add(tr.trajId);
    } catch {
      // not a labeled batch (a hostile message): nothing of it was published as a trajectory
    }
  }
  const droppedIds = new Set(Object.values(ledger.dropped).flatMap((s) => [...s]));
  report.published = labeled.size;
  report.applied = applied.size;
  report.dropped = droppedIds.size;
  const lost = [...labeled.keys()].filter((id) => !applied.has(id) && !droppedIds.has(id));
  const duplicated = [...applied].filter(([, c]) => c > 1).map(([id]) => id);
  report.lost = lost.length;
  report.duplicated = duplicated.length;
  report.lostIds = lost.slice(0, 20);
  report.duplicatedIds = duplicated.slice(0, 20);
  report.unlabeledEnvs = [...rawEnvs].filter((e) => !labeledEnvs.has(e)).slice(0, 20);
  return report;
}

/** Every message of a stream, read through an ordered consumer. */
async function readAll(conn: Connection, stream: string): Promise<Array<{ subject: string; data: Uint8Array }>> {
  const info = await conn.jsm.streams.info(stream);
  const out: Array<{ subject: string; data: Uint8Array }> = [];
  if (info.state.messages === 0) return out;
  const oc = await conn.js.consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  while (out.length < info.state.messages) {
    const m = await oc.next({ expires: 5_000 });
    if (!m) break;
    out.push({ subject: m.subject, data: m.data });
  }
  return out;
}

/**
 * The learner's ledger read from its files, not through the learner's code: the update lines up to the update count
 * of its last checkpoint (later ones were never made final) and every drop line, by reason.
 */
function readLedger(stateDir: string): { applied: string[]; dropped: Record<string, Set<string>> } {
  const latest = existsSync(join(stateDir, 'LATEST')) ? readFileSync(join(stateDir, 'LATEST'), 'utf8').trim() : null;
  const upTo = latest ? (JSON.parse(readFileSync(join(stateDir, latest, 'learner.json'), 'utf8')) as { updates: number }).updates : 0;
  const applied: string[] = [];
  const dropped: Record<string, Set<string>> = {};
  const file = join(stateDir, 'accounting.jsonl');
  for (const line of existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []) {
    if (!line.trim()) continue;
    let l: { kind: string; update?: number; applied?: string[]; reason?: string; dropped?: string[] };
    try {
      l = JSON.parse(line);
    } catch {
      continue; // a torn last line
    }
    if (l.kind === 'update' && l.update! <= upTo) applied.push(...l.applied!);
    else if (l.kind === 'drop') for (const id of l.dropped!) (dropped[l.reason!] ??= new Set()).add(id);
  }
  return { applied, dropped };
}
