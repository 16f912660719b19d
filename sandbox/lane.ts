// One worker thread of the pool: a single-thread Piscina (so the pool controls routing and affinity), its
// shared call-watch cell, and the wall-clock watchdog that terminates the thread when a call overruns.
import { Piscina } from 'piscina';
import { SharedCallWatch, WATCH_BYTES } from './call-watch.js';
import type { EnvStage } from './errors.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { WorkerBatch, WorkerReply, WorkerTask } from './wire.js';
import { zeroTotal, type PhaseTotals } from '../runtime/phase-meter.js';

export interface KillRecord {
  stage: EnvStage;
  turn: number;
  ms: number;
}

const WORKER_FILE = new URL('./worker.js', import.meta.url).href;
const MAX_BATCH = 256;

interface Job {
  task: WorkerTask;
  resolve(reply: WorkerReply): void;
  reject(err: unknown): void;
}

export class Lane {
  pending = 0;
  /** Worker threads started for this lane, the first included. */
  starts = 0;
  kills = 0;
  /** Busy time of the thread by phase (charge). */
  readonly phases: PhaseTotals = {};
  /** Hashes whose code this lane's current thread has been sent; cleared when the thread is replaced. */
  readonly knownHashes = new Set<string>();
  private readonly piscina: Piscina;
  private readonly watch: SharedCallWatch;
  private readonly killed = new Map<number, KillRecord>();
  private killing = false;
  private readonly queue: Job[] = [];
  private inFlight = false;

  constructor(readonly index: number, private readonly options: ResolvedSandboxOptions) {
    const sab = new SharedArrayBuffer(WATCH_BYTES);
    this.watch = new SharedCallWatch(sab);
    this.piscina = new Piscina({
      filename: WORKER_FILE,
      minThreads: 1,
      maxThreads: 1,
      concurrentTasksPerWorker: 1,
      idleTimeout: 2 ** 31 - 1,
      atomics: 'async',
      workerData: { options, watch: sab },
    });
    this.piscina.on('workerCreate', () => {
      this.starts++;
      this.knownHashes.clear();
    });
    // A worker that dies between tasks is replaced by Piscina; without a listener the event would crash the host.
    this.piscina.on('error', () => {});
  }

  /**
   * Queues a task. While a batch is in flight, tasks accumulate and go out together as the next batch: one message
   * round trip then carries many steps, which is most of the cost of a step on the live path.
   */
  run(task: WorkerTask): Promise<WorkerReply> {
    this.pending++;
    return new Promise<WorkerReply>((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.inFlight || this.queue.length === 0) return;
    const jobs = this.queue.splice(0, MAX_BATCH);
    this.inFlight = true;
    const batch: WorkerBatch = { items: jobs.map((j) => j.task) };
    const t0 = performance.now();
    this.piscina.run(batch).then(
      (replies: WorkerReply[]) => jobs.forEach((j, i) => j.resolve(replies[i]!)),
      (err: unknown) => jobs.forEach((j) => j.reject(err)),
    ).finally(() => {
      this.charge(batch, performance.now() - t0);
      this.inFlight = false;
      this.pending -= jobs.length;
      this.pump();
    });
  }

  /**
   * The thread's busy time by phase: a batch with a validation in it counts as validation, any other as sandbox
   * steps. Measured here around the thread's run, so its CPU is taken as its wall time (one thread, busy throughout).
   */
  private charge(batch: WorkerBatch, ms: number): void {
    const phase = batch.items.some((t) => t.kind === 'validate') ? 'validation' : 'sandbox';
    const t = (this.phases[phase] ??= zeroTotal());
    t.calls += batch.items.length;
    t.wallMs += ms;
    t.cpuMs += ms;
  }

  /** The kill record of a task the watchdog terminated, consumed once. */
  takeKill(seq: number): KillRecord | undefined {
    const k = this.killed.get(seq);
    this.killed.delete(seq);
    return k;
  }

  /** Called periodically by the pool: terminates the thread if its current call overran the wall clock. */
  checkWatchdog(now: number): void {
    if (this.killing) return;
    const ms = this.watch.runningMs(now);
    if (ms <= this.options.wallClockKillMs) return;
    this.killed.set(this.watch.task, { stage: this.watch.stage, turn: this.watch.turn, ms: Math.round(ms) });
    this.kills++;
    void this.terminate();
  }

  /** Terminates the current thread (Piscina starts a replacement; its in-flight task fails). */
  async terminate(): Promise<void> {
    const thread = this.piscina.threads[0];
    if (!thread || this.killing) return;
    this.killing = true;
    try {
      await thread.terminate();
    } finally {
      this.watch.end();
      this.knownHashes.clear();
      this.killing = false;
    }
  }

  get threadId(): number | undefined {
    return this.piscina.threads[0]?.threadId;
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
