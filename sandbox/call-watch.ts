// Shared-memory cell through which a worker tells the pool's watchdog which call it is in and since when, so a
// call stuck in a long C builtin (which never polls the interrupt handler) can be killed from outside.
import type { EnvStage } from './errors.js';
import type { CallWatch } from './quickjs-host.js';

export const WATCH_BYTES = 32;
const STAGES: EnvStage[] = ['parse', 'load', 'reset', 'step', 'oracle', 'validation'];

/** Absolute milliseconds, comparable across threads (performance.now() alone is per-thread). */
export const nowMs = (): number => performance.timeOrigin + performance.now();

export class SharedCallWatch implements CallWatch {
  private readonly f64: Float64Array;
  private readonly i32: Int32Array;
  constructor(sab: SharedArrayBuffer) {
    this.f64 = new Float64Array(sab, 0, 1);
    this.i32 = new Int32Array(sab, 8, 4);
  }
  /** Which task the worker is running (set at task start). */
  set task(seq: number) {
    this.i32[0] = seq;
  }
  get task(): number {
    return this.i32[0]!;
  }
  begin(stage: EnvStage, turn: number): void {
    this.i32[1] = STAGES.indexOf(stage);
    this.i32[2] = turn;
    this.f64[0] = nowMs();
  }
  end(): void {
    this.f64[0] = 0;
  }
  /** Milliseconds the current call has run, 0 when none is running. */
  runningMs(now: number): number {
    const t = this.f64[0]!;
    return t === 0 ? 0 : now - t;
  }
  get stage(): EnvStage {
    return STAGES[this.i32[1]!] ?? 'validation';
  }
  get turn(): number {
    return this.i32[2]!;
  }
}
