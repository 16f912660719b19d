// Where a run's CPU seconds went, folded from the hosts' profile metrics (runtime/host-profile.ts): each host's latest
// reading (they are cumulative), then the run's sum over hosts. Pure.
import type { MetricBody } from '../../runtime/message-types.js';

export interface PhaseReading { cpuMs: number; wallMs: number; calls: number; tokens: number; flops: number }
export interface HostReading { cpuMs: number; wallMs: number; mainLoopBusy: number; phases: Record<string, PhaseReading> }
export type RunProfile = Record<string, HostReading>;

const num = (tags: Record<string, string> | undefined, k: string): number => Number(tags?.[k] ?? NaN);

/** Folds one metric into the profile; returns false for a metric that is not a profile reading. */
export function onProfileMetric(p: RunProfile, m: MetricBody): boolean {
  if (!m.name.startsWith('profile.')) return false;
  const h = (p[m.host] ??= { cpuMs: 0, wallMs: 0, mainLoopBusy: 0, phases: {} });
  if (m.name === 'profile.process') {
    h.cpuMs = m.value;
    h.wallMs = num(m.tags, 'wallMs');
    h.mainLoopBusy = num(m.tags, 'mainLoopBusy');
  } else if (m.name.startsWith('profile.phase.')) {
    h.phases[m.name.slice('profile.phase.'.length)] = {
      cpuMs: m.value, wallMs: num(m.tags, 'wallMs'), calls: num(m.tags, 'calls'), tokens: num(m.tags, 'tokens'), flops: num(m.tags, 'flops'),
    };
  }
  return true;
}

/** The phases that run the model, whose FLOPs are counted (the optimizer's elementwise pass is not). */
export const MODEL_PHASES = ['prefill', 'decode', 'score', 'train'] as const;

export interface PhaseSummary { cpuSec: number; share: number; calls: number; tokens: number; gflop: number; gflopsPerCpuSec: number | null }

export interface ProfileSummary {
  hosts: number;
  /** CPU seconds of every host's process, all threads. */
  cpuSec: number;
  /** Per phase, over hosts: CPU seconds, their share of cpuSec, and for the model's phases tokens and GFLOP/s of CPU time. */
  phases: Record<string, PhaseSummary>;
  /** CPU seconds no phase accounts for: the bus, (de)serialisation, the actors, GC, onnxruntime's extra pool threads. */
  otherSec: number;
  /** Model FLOPs of every model phase over their CPU seconds. */
  modelGflopsPerCpuSec: number | null;
  /**
   * How busy the hosts' main threads were (event-loop utilisation, mean over hosts): the actors, the bus client and
   * (de)serialisation run there, so it bounds that part of "other".
   */
  mainLoopBusy: number | null;
}

export function profileSummary(p: RunProfile): ProfileSummary | null {
  const hosts = Object.values(p);
  if (hosts.length === 0) return null;
  const sums: Record<string, { cpuSec: number; calls: number; tokens: number; gflop: number }> = {};
  for (const h of hosts) {
    for (const [name, t] of Object.entries(h.phases)) {
      const x = (sums[name] ??= { cpuSec: 0, calls: 0, tokens: 0, gflop: 0 });
      x.cpuSec += (Number.isFinite(t.cpuMs) ? t.cpuMs : t.wallMs) / 1000; // a thread whose CPU could not be read: its wall time
      x.calls += t.calls;
      x.tokens += t.tokens;
      x.gflop += t.flops / 1e9;
    }
  }
  const busy = hosts.map((h) => h.mainLoopBusy).filter((x) => Number.isFinite(x));
  return summarise(hosts.length, hosts.reduce((a, h) => a + h.cpuMs, 0) / 1000, sums, busy.length ? busy.reduce((a, b) => a + b, 0) / busy.length : null);
}

/** Several runs' profiles as one (bench:loop's rounds of an arm): seconds, calls, tokens and FLOPs add up. */
export function mergeProfiles(list: readonly (ProfileSummary | null)[]): ProfileSummary | null {
  const xs = list.filter((x): x is ProfileSummary => x !== null);
  if (xs.length === 0) return null;
  const sums: Record<string, { cpuSec: number; calls: number; tokens: number; gflop: number }> = {};
  for (const x of xs) {
    for (const [name, t] of Object.entries(x.phases)) {
      const y = (sums[name] ??= { cpuSec: 0, calls: 0, tokens: 0, gflop: 0 });
      y.cpuSec += t.cpuSec;
      y.calls += t.calls;
      y.tokens += t.tokens;
      y.gflop += t.gflop;
    }
  }
  const busy = xs.map((x) => x.mainLoopBusy).filter((x): x is number => x !== null && x !== undefined);
  return summarise(Math.max(...xs.map((x) => x.hosts)), xs.reduce((a, x) => a + x.cpuSec, 0), sums, busy.length ? busy.reduce((a, b) => a + b, 0) / busy.length : null);
}

function summarise(hosts: number, cpuSec: number, sums: Record<string, { cpuSec: number; calls: number; tokens: number; gflop: number }>, mainLoopBusy: number | null): ProfileSummary {
  const isModel = (name: string): boolean => (MODEL_PHASES as readonly string[]).includes(name);
  const phases: ProfileSummary['phases'] = {};
  let phaseSec = 0, modelGflop = 0, modelSec = 0;
  for (const [name, x] of Object.entries(sums)) {
    phaseSec += x.cpuSec;
    if (isModel(name)) {
      modelGflop += x.gflop;
      modelSec += x.cpuSec;
    }
    phases[name] = {
      cpuSec: x.cpuSec, share: cpuSec > 0 ? x.cpuSec / cpuSec : 0, calls: x.calls, tokens: x.tokens, gflop: x.gflop,
      gflopsPerCpuSec: isModel(name) && x.cpuSec > 0 ? x.gflop / x.cpuSec : null,
    };
  }
  return { hosts, cpuSec, phases, otherSec: Math.max(0, cpuSec - phaseSec), modelGflopsPerCpuSec: modelSec > 0 ? modelGflop / modelSec : null, mainLoopBusy };
}

/** One line per phase, largest first, then the rest: for bench:loop and `spade report`. */
export function profileTable(p: ProfileSummary): string[] {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const rows = Object.entries(p.phases).sort((a, b) => b[1].cpuSec - a[1].cpuSec);
  return [
    '| phase | cpu s | share | calls | tokens | GFLOP/s of its cpu |',
    '|---|---|---|---|---|---|',
    ...rows.map(([name, x]) => `| ${name} | ${x.cpuSec.toFixed(1)} | ${pct(x.share)} | ${x.calls} | ${x.tokens} | ${x.gflopsPerCpuSec === null ? '—' : x.gflopsPerCpuSec.toFixed(1)} |`),
    `| other (bus, actors, GC, onnxruntime pool threads, …) | ${p.otherSec.toFixed(1)} | ${pct(p.cpuSec > 0 ? p.otherSec / p.cpuSec : 0)} | | | main thread busy ${p.mainLoopBusy === null || p.mainLoopBusy === undefined ? '—' : pct(p.mainLoopBusy)} |`,
    `| all, ${p.hosts} host(s) | ${p.cpuSec.toFixed(1)} | 100% | | | model ${p.modelGflopsPerCpuSec === null ? '—' : p.modelGflopsPerCpuSec.toFixed(1)} |`,
  ];
}
