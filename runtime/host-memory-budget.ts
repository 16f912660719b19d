// The host's side of its memory budget (host.memoryBudgetMb): the gate built from the config, and what crossing a
// watermark does. Over the budget every pull is closed (the server keeps what it has not delivered; what was delivered
// and not started yet is nak'ed back by the pull loop), handlers already running finish; under the lower watermark
// the pull loops subscribe again (they wait on the gate). Either way it is said in the log and as a `host.shedding`
// metric (1 / 0). The hysteresis itself is pure logic in memory-gate.ts.
import type { ClusterConfig } from './config-schema.js';
import type { Connection } from './connection.js';
import { HostError } from './errors.js';
import { MemoryGate, type GateState } from './memory-gate.js';
import { Metric } from './message-types.js';
import { encode } from './messages.js';
import { SUBJECTS } from './subjects.js';

export interface HostMemoryBudgetOptions {
  config: ClusterConfig;
  hostId: string;
  log: (line: string) => void;
  /** Where the readings come from (process.memoryUsage.rss by default); tests hand in their own numbers. */
  readRss?: () => number;
  /** Closes every pull of every actor on the host. */
  closePulls(): void;
  /** Who publishes the metric: with per-role users a role may publish only its own metrics subject. */
  publisher(): { conn: Connection; role: string };
  /** Counts a shed (HostStats.sheds). */
  onShed(): void;
}

/** The host's memory gate, or null when host.memoryBudgetMb is 0. Throws HostError naming a resume watermark at or over the shed one. */
export function hostMemoryGate(o: HostMemoryBudgetOptions): MemoryGate | null {
  const h = o.config.host;
  if (h.memoryBudgetMb > 0 && !(h.memoryResumeAt < h.memoryShedAt)) {
    throw new HostError(`host.memoryResumeAt must be below host.memoryShedAt (${h.memoryShedAt}), got ${h.memoryResumeAt}`, { field: 'host.memoryResumeAt' });
  }
  if (h.memoryBudgetMb <= 0) return null;
  return new MemoryGate({
    budgetBytes: h.memoryBudgetMb * 2 ** 20, shedAt: h.memoryShedAt, resumeAt: h.memoryResumeAt, everyMs: h.memoryCheckMs,
    ...(o.readRss ? { readRss: o.readRss } : {}),
    onChange: (state) => onGate(o, state),
  });
}

function onGate(o: HostMemoryBudgetOptions, state: GateState): void {
  const { memoryBudgetMb: budget, memoryShedAt, memoryResumeAt } = o.config.host;
  const rss = Math.round(state.rssBytes / 2 ** 20);
  if (state.shedding) {
    o.onShed();
    o.log(`host ${o.hostId}: RSS ${rss} MB is over ${memoryShedAt} of host.memoryBudgetMb (${budget} MB): not taking new jobs until it is under ${Math.round(memoryResumeAt * budget)} MB`);
    o.closePulls();
  } else o.log(`host ${o.hostId}: RSS ${rss} MB is under ${memoryResumeAt} of host.memoryBudgetMb (${budget} MB): taking jobs again`);
  const body = { role: 'host', host: o.hostId, ts: Date.now(), name: 'host.shedding', value: state.shedding ? 1 : 0, tags: { rssMb: String(rss), budgetMb: String(budget) } };
  const { conn, role } = o.publisher();
  void conn.js.publish(SUBJECTS.metrics(role), encode(Metric, body)).catch((err: Error) => o.log(`cannot publish host.shedding: ${err.message}`));
}
