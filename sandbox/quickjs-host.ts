// One QuickJS WebAssembly instance per worker thread, with the shared time limit (interrupt handler), memory
// limits and recycling: after an out-of-memory the whole instance is dropped.
//
// Memory: this QuickJS build cannot measure its allocations (malloc_usable_size is unavailable, so
// JS_SetMemoryLimit only stops single allocations larger than the limit). The host therefore bounds the
// WebAssembly memory itself (a hard maximum per worker) and treats growth of more than memoryLimitBytes during
// one call as the environment's out-of-memory.
import {
  newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSRuntime, type QuickJSWASMModule,
} from 'quickjs-emscripten';
import type { EnvStage } from './errors.js';
import type { ResolvedSandboxOptions } from './options.js';
import { Realm } from './realm.js';
import { ThreadCpu } from '../runtime/thread-cpu.js';

/** Tells whoever watches the wall clock (the pool's watchdog) when a call into QuickJS begins and ends. */
export interface CallWatch {
  begin(stage: EnvStage, turn: number): void;
  end(): void;
}

const NO_WATCH: CallWatch = { begin() {}, end() {} };

/** The slice of WebAssembly.Memory used here (the project's TypeScript lib has no WebAssembly types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly;
const PAGE = 65536;
/** Idle realms kept for reuse: enough for the episodes in flight, or realms are freed and locked down again. */
const IDLE_REALMS = 64;
const WARM_UP_BUDGET_MS = 2000;
const CPU_RECHECK_MS = 10;
const INITIAL_PAGES = 256;

export class QuickJsHost {
  /** Bumped at every recycle: instances of an older generation belong to a dropped WebAssembly instance. */
  generation = 0;
  /** Set after an out-of-memory (or anything else that may have corrupted the instance): recycle before reuse. */
  poisoned = false;
  /** True when the interrupt handler stopped the current call. */
  interrupted = false;
  /** True when the current call grew the WebAssembly memory past its allowance. */
  memoryExceeded = false;
  private deadline = 0;
  private readonly idleRealms: Realm[] = [];
  /** While true (engine warm-up) calls get a generous budget: a cold instance is slow, and it is our own code. */
  warming = false;
  private memoryCeiling = 0;
  private callStart = 0;
  private budget = 0;
  /** Thread CPU time when the wall budget first ran out (-1: not yet). */
  private cpuMark = -1;
  private readonly cpu = new ThreadCpu();
  /**
   * Polled by QuickJS every few thousand operations. The wall clock is the cheap first check; once the wall
   * budget is spent, the call must also have used `budget` of its thread's CPU since then before it is stopped,
   * so a descheduled call on a busy machine is not blamed. Past half the watchdog's wall limit it stops anyway.
   */
  private readonly interrupt = (): boolean => {
    if (this.memory.buffer.byteLength > this.memoryCeiling) {
      this.memoryExceeded = true;
      this.interrupted = true;
      return true;
    }
    const now = performance.now();
    if (now <= this.deadline) return false;
    const cpu = this.cpu.ms();
    const spent = cpu - this.cpuMark;
    if (Number.isNaN(cpu) || now - this.callStart > this.options.wallClockKillMs / 2 || (this.cpuMark >= 0 && spent >= this.budget)) {
      this.interrupted = true;
      return true;
    }
    if (this.cpuMark < 0) this.cpuMark = cpu;
    this.deadline = now + Math.max(CPU_RECHECK_MS, this.budget - Math.max(0, spent));
    return false;
  };

  private constructor(
    private module: QuickJSWASMModule,
    private memory: WasmMemory,
    readonly options: ResolvedSandboxOptions,
    readonly kitSource: string | undefined,
    private readonly watch: CallWatch,
  ) {}

  static async create(options: ResolvedSandboxOptions, kitSource: string | undefined, watch: CallWatch = NO_WATCH): Promise<QuickJsHost> {
    const [module, memory] = await QuickJsHost.load(options);
    return new QuickJsHost(module, memory, options, kitSource, watch);
  }

  private static async load(options: ResolvedSandboxOptions): Promise<[QuickJSWASMModule, WasmMemory]> {
    const memory = new Memory({ initial: INITIAL_PAGES, maximum: Math.floor(options.workerMemoryCapBytes / PAGE) });
    return [await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory as never })), memory];
  }

  /** A runtime with this sandbox's limits; each environment instance gets its own. */
  newRuntime(): QuickJSRuntime {
    const rt = this.module.newRuntime();
    rt.setMemoryLimit(this.options.memoryLimitBytes);
    rt.setMaxStackSize(this.options.maxStackBytes);
    rt.setInterruptHandler(this.interrupt);
    return rt;
  }

  /** A locked-down realm for one episode: an idle one when available, else a new one. */
  takeRealm(): Realm {
    for (;;) {
      const r = this.idleRealms.pop();
      if (r === undefined) return new Realm(this);
      if (r.reusable(this.options.episodesPerRealm)) return r;
      r.free();
    }
  }

  /** Takes a realm back after its episode: kept for reuse while healthy, otherwise freed (or abandoned). */
  returnRealm(realm: Realm): void {
    if (realm.reusable(this.options.episodesPerRealm) && this.idleRealms.length < IDLE_REALMS) this.idleRealms.push(realm);
    else realm.free();
  }

  beginCall(stage: EnvStage, turn: number): void {
    this.interrupted = false;
    this.memoryExceeded = false;
    this.memoryCeiling = this.memory.buffer.byteLength + this.options.memoryLimitBytes;
    this.budget = this.warming ? WARM_UP_BUDGET_MS : this.options.callTimeoutMs;
    this.callStart = performance.now();
    this.deadline = this.callStart + this.budget;
    this.cpuMark = -1;
    this.watch.begin(stage, turn);
  }

  /** Gives a short fresh budget, used to inspect an error value after the call's own budget ran out. */
  extendDeadline(ms: number): void {
    this.interrupted = false;
    this.memoryCeiling = Number.POSITIVE_INFINITY;
    this.budget = ms;
    this.cpuMark = -1;
    this.callStart = performance.now();
    this.deadline = this.callStart + ms;
  }

  /** A generous budget for our own code (prelude, kit, lockdown), which the wall-clock watchdog does not watch. */
  ownCodeBudget(ms: number): void {
    this.extendDeadline(ms);
    this.watch.end();
  }

  endCall(): void {
    this.watch.end();
  }

  /** Bytes of WebAssembly memory this instance has grown to (it never shrinks). */
  memoryBytes(): number {
    return this.memory.buffer.byteLength;
  }

  /** Whether the call that just ended grew the memory past its allowance (checked again after it returns). */
  overAllowance(): boolean {
    return this.memoryExceeded || this.memory.buffer.byteLength > this.memoryCeiling;
  }

  /** After an OOM, or past half the hard maximum (so live instances keep headroom). */
  needsRecycle(): boolean {
    return this.poisoned || this.memoryBytes() > this.options.workerMemoryCapBytes / 2;
  }

  /**
   * Drops the WebAssembly instance without disposing anything in it (disposing after an OOM can abort the module)
   * and loads a fresh one. Callers must forget every instance of the old generation.
   */
  async recycle(): Promise<void> {
    this.idleRealms.length = 0;
    [this.module, this.memory] = await QuickJsHost.load(this.options);
    this.generation++;
    this.poisoned = false;
  }
}
