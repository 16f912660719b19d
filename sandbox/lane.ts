// One worker thread of the pool: a single-thread Piscina (so the pool controls routing and affinity), its
// shared call-watch cell, and the wall-clock watchdog that terminates the thread when a call overruns.
import { Piscina } from 'piscina';
import { SharedCallWatch, WATCH_BYTES } from './call-watch.js';
import type { EnvStage } from './errors.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { WorkerReply, WorkerTask } from './wire.js';

export interface KillRecord {
  stage: EnvStage;
  turn: number;
  ms: number;
}

const WORKER_FILE = new URL('./worker.js', import.meta.url).href;

export class Lane {
  pending = 0;
  /** Worker threads started for this lane, the first included. */
  starts = 0;
  kills = 0;
  /** Hashes whose code this lane's current thread has been sent; cleared when the thread is replaced. */
  readonly knownHashes = new Set<string>();
  private readonly piscina: Piscina;
  private readonly watch: SharedCallWatch;
  private readonly killed = new Map<number, KillRecord>();
  private killing = false;

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

  async run(task: WorkerTask): Promise<WorkerReply> {
    this.pending++;
    try {
      return (await this.piscina.run(task)) as WorkerReply;
    } finally {
      this.pending--;
    }
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
