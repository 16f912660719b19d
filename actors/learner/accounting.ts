// The learner's accounting log (JSON lines): an `update` line names the trajectories one update applied, a `drop`
// line those consumed without training (too stale, unusable). Drops are final once their line is fsynced; applied
// ids become final with the checkpoint that holds their update. On restart, update lines past the restored
// checkpoint (rolled back with its weights) are cut, so the log lists exactly the trajectories inside the weights.
import { mkdir, open, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { LearnerStateError } from './errors.js';

/** Why a trajectory was consumed without training: too stale, or unusable samples. */
export type DropReason = 'stale' | 'invalid';

export type AccountingLine =
  | { kind: 'update'; update: number; version: number; applied: string[] }
  | { kind: 'drop'; version: number; reason: DropReason; dropped: string[] };

export const ACCOUNTING_FILE = 'accounting.jsonl';

/** What is wrong with one parsed line, or null. */
function lineProblem(l: unknown): string | null {
  const ids = (v: unknown): boolean => Array.isArray(v) && v.every((id) => typeof id === 'string');
  const count = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
  if (l === null || typeof l !== 'object') return 'not an object';
  const o = l as Record<string, unknown>;
  if (o.kind === 'update') return count(o.update) && count(o.version) && ids(o.applied) ? null : 'an update line needs update, version (integers >= 0) and applied (ids)';
  if (o.kind === 'drop') return count(o.version) && (o.reason === 'stale' || o.reason === 'invalid') && ids(o.dropped) ? null : 'a drop line needs version, reason (stale or invalid) and dropped (ids)';
  return `unknown kind ${JSON.stringify(o.kind)}`;
}

/**
 * Reads the log, keeping drop lines and update lines of updates <= upTo. A torn last line (a crash mid-write) is
 * ignored; a bad line with good ones after it is corruption, refused with LearnerStateError naming the line, rather
 * than cutting the log there (which would forget trajectories already applied or dropped, and apply them again).
 */
export async function readAccounting(stateDir: string, upTo = Infinity): Promise<AccountingLine[]> {
  const file = join(stateDir, ACCOUNTING_FILE);
  const text = await readFile(file, 'utf8').catch(() => '');
  const out: AccountingLine[] = [];
  const lines = text.split('\n');
  const last = lines.findLastIndex((line) => line.trim() !== '');
  for (let i = 0; i <= last; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    let l: unknown, problem: string | null;
    try {
      l = JSON.parse(line);
      problem = lineProblem(l);
    } catch (err) {
      problem = `not JSON (${(err as Error).message})`;
    }
    if (problem !== null) {
      if (i === last) break; // torn by a crash: the write never completed, so nothing was acked on it
      throw new LearnerStateError(`${file} line ${i + 1}: ${problem}; later lines follow, so this is corruption, not a torn write`, { file, line: i + 1 });
    }
    const a = l as AccountingLine;
    if (a.kind === 'drop' || a.update <= upTo) out.push(a);
  }
  return out;
}

export class AccountingLog {
  /** Ids whose fate is final: dropped (line synced) or applied in a checkpointed update. Redeliveries of these are acked. */
  readonly final = new Set<string>();
  /** Trajectories the log records as dropped, by reason (final whatever happened to the weights since). */
  readonly droppedBy: Record<DropReason, number> = { stale: 0, invalid: 0 };
  /** Ids applied since the last checkpoint (final once it is taken). */
  private readonly pendingApplied = new Set<string>();

  private constructor(private readonly fh: FileHandle) {}

  /** Opens the log at `stateDir`, cutting update lines past `upTo` (the restored checkpoint's update count). */
  static async open(stateDir: string, upTo: number): Promise<AccountingLog> {
    await mkdir(stateDir, { recursive: true });
    const lines = await readAccounting(stateDir, upTo);
    const path = join(stateDir, ACCOUNTING_FILE);
    await writeFile(`${path}.tmp`, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    await rename(`${path}.tmp`, path);
    const log = new AccountingLog(await open(path, 'a'));
    for (const l of lines) for (const id of l.kind === 'drop' ? l.dropped : l.applied) log.final.add(id);
    for (const l of lines) if (l.kind === 'drop') log.droppedBy[l.reason] += l.dropped.length;
    return log;
  }

  /** True when the id was applied or dropped already (final, or applied since the last checkpoint). */
  seen(id: string): boolean {
    return this.final.has(id) || this.pendingApplied.has(id);
  }

  async applied(update: number, version: number, ids: string[]): Promise<void> {
    for (const id of ids) this.pendingApplied.add(id);
    await this.fh.appendFile(JSON.stringify({ kind: 'update', update, version, applied: ids } satisfies AccountingLine) + '\n');
  }

  /**
   * Appends updates the weights hold but this log lacks (a learner group's rounds this member missed, applied by the
   * others), as final at once; ids the log has already (a round applied here before a stop) are not written again.
   */
  async appliedElsewhere(updates: ReadonlyArray<readonly [update: number, ids: string[]]>, version: number): Promise<void> {
    if (updates.length === 0) return;
    for (const [update, ids] of updates) {
      const fresh = ids.filter((id) => !this.seen(id));
      if (fresh.length > 0) await this.applied(update, version, fresh);
    }
    await this.sync();
    this.checkpointed();
  }

  /** Records drops durably (fsync): they are final at once, whatever happens to the weights. */
  async dropped(version: number, reason: DropReason, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.fh.appendFile(JSON.stringify({ kind: 'drop', version, reason, dropped: ids } satisfies AccountingLine) + '\n');
    await this.fh.sync();
    for (const id of ids) this.final.add(id);
  }

  /** Call before writing a checkpoint: the update lines it covers must be on disk first. */
  async sync(): Promise<void> {
    await this.fh.sync();
  }

  /** Call after the checkpoint is durable: everything applied so far is final. */
  checkpointed(): void {
    for (const id of this.pendingApplied) this.final.add(id);
    this.pendingApplied.clear();
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}
