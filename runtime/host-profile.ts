// The host's profile on the bus: every host.profileEveryMs, and once more when the host stops, the process's totals
// (runtime/work-profile.ts) go out as metrics, cumulative since the process started, so the latest of each host is
// its whole story and a reader folding the stream from its start ends at the same figures.
//   profile.process       value: CPU ms of every thread; tags: wallMs, mainLoopBusy
//   profile.phase.<name>  value: CPU ms of that phase; tags: wallMs, calls, tokens, flops (and cpu: 'wall' where the
//                         thread's CPU could not be read and the value is its wall time)
import { beat, type Beat } from './beat.js';
import type { Connection } from './connection.js';
import { Metric, type MetricBody } from './message-types.js';
import { encode } from './messages.js';
import { SUBJECTS } from './subjects.js';
import { processProfile, type ProcessProfile } from './work-profile.js';

export interface HostProfileOptions {
  hostId: string;
  everyMs: number;
  /** Who publishes: with per-role users a role may publish only its own metrics subject. */
  publisher(): { conn: Connection; role: string };
  log: (line: string) => void;
  /** Where the figures come from (processProfile by default). */
  read?: () => ProcessProfile;
}

/** The metric bodies of one profile reading. */
export function profileMetrics(p: ProcessProfile, role: string, host: string, ts: number): MetricBody[] {
  const out: MetricBody[] = [{ role, host, ts, name: 'profile.process', value: p.cpuMs, tags: { wallMs: String(p.wallMs), mainLoopBusy: String(p.mainLoopBusy) } }];
  for (const [phase, t] of Object.entries(p.phases)) {
    // A metric's value is finite: where the thread's CPU could not be read, its wall time stands in, and says so.
    const cpuKnown = Number.isFinite(t.cpuMs);
    out.push({
      role, host, ts, name: `profile.phase.${phase}`, value: cpuKnown ? t.cpuMs : t.wallMs,
      tags: { wallMs: String(t.wallMs), calls: String(t.calls), tokens: String(t.tokens), flops: String(t.flops), ...(cpuKnown ? {} : { cpu: 'wall' }) },
    });
  }
  return out;
}

/** CPU seconds by phase and of the whole process (`all`), for the host's heartbeat: `spade status` shows the shares. */
export function cpuByPhase(p: ProcessProfile): Record<string, number> {
  const out: Record<string, number> = { all: Math.max(0, p.cpuMs / 1000) };
  for (const [phase, t] of Object.entries(p.phases)) out[phase] = Math.max(0, (Number.isFinite(t.cpuMs) ? t.cpuMs : t.wallMs) / 1000);
  return out;
}

/** This process's cpuByPhase now, for the heartbeat. */
export const heartbeatCpu = (): Record<string, number> => cpuByPhase(processProfile());

/** "decode 41% train 30% … other 12%" of a heartbeat's cpuSec, largest first. */
export function formatCpuShares(cpuSec: Record<string, number>): string {
  const all = cpuSec.all ?? 0;
  if (!(all > 0)) return '';
  const phases = Object.entries(cpuSec).filter(([k]) => k !== 'all').sort((a, b) => b[1] - a[1]);
  const other = Math.max(0, all - phases.reduce((a, [, v]) => a + v, 0));
  const pct = (v: number): string => `${Math.round((100 * v) / all)}%`;
  return [...phases.map(([k, v]) => `${k} ${pct(v)}`), `other ${pct(other)}`].join(' ');
}

export class HostProfilePublisher {
  private ticker: Beat | null = null;
  private warned = false;

  constructor(private readonly o: HostProfileOptions) {}

  start(): void {
    if (this.o.everyMs <= 0 || this.ticker) return;
    this.ticker = beat(`host ${this.o.hostId}'s profile`, this.o.everyMs, () => this.publish(), { onError: (err) => this.o.log(err.message) });
  }

  /** Stops the beat and publishes the final reading. */
  async stop(): Promise<void> {
    if (!this.ticker) return;
    this.ticker.stop();
    this.ticker = null;
    await this.publish();
  }

  async publish(): Promise<void> {
    const { conn, role } = this.o.publisher();
    const bodies = profileMetrics((this.o.read ?? processProfile)(), role, this.o.hostId, Date.now());
    try {
      await Promise.all(bodies.map((b) => conn.js.publish(SUBJECTS.metrics(role), encode(Metric, b))));
    } catch (err) {
      // Best effort, like every metric; said once, not every period.
      if (!this.warned) this.o.log(`host ${this.o.hostId}: cannot publish its profile: ${(err as Error).message}`);
      this.warned = true;
    }
  }
}
