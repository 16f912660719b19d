// The host process's profile: where its CPU seconds go. Whatever does measured work in the process (a sampler, the
// trainer, the sandbox's worker threads) registers a source of its phase totals (runtime/phase-meter.ts); the
// profile adds them up beside the process's own CPU time (every thread, from process.cpuUsage) and the main thread's
// event-loop utilisation. What no phase accounts for is the rest: the bus, (de)serialisation, the actors' own code,
// garbage collection, onnxruntime's extra pool threads.
import { performance } from 'node:perf_hooks';
import { addTotals, type PhaseTotals } from './phase-meter.js';

const sources = new Set<() => PhaseTotals>();
/** The totals of sources removed so far. */
let retired: PhaseTotals = {};
const startedAt = performance.now();
const cpuAtStart = process.cpuUsage();
const eluAtStart = performance.eventLoopUtilization();

/** Adds a source of phase totals to this process's profile; the returned function removes it (its totals so far are kept). */
export function addPhaseSource(read: () => PhaseTotals): () => void {
  sources.add(read);
  return () => {
    if (!sources.delete(read)) return;
    retired = addTotals(retired, read());
  };
}

export interface ProcessProfile {
  /** Since this module loaded (the process's start, near enough). */
  wallMs: number;
  /** CPU time of every thread of the process. */
  cpuMs: number;
  /** The main thread's event-loop utilisation (0–1). */
  mainLoopBusy: number;
  phases: PhaseTotals;
}

export function processProfile(): ProcessProfile {
  const cpu = process.cpuUsage(cpuAtStart);
  let phases = retired;
  for (const read of sources) phases = addTotals(phases, read());
  return {
    wallMs: performance.now() - startedAt,
    cpuMs: (cpu.user + cpu.system) / 1000,
    mainLoopBusy: performance.eventLoopUtilization(eluAtStart).utilization,
    phases,
  };
}
