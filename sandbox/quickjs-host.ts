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
const IDLE_REALMS = 8;
const WARM_UP_BUDGET_MS = 2000;
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
  private readonly interrupt = (): boolean => {
    if (this.memory.buffer.byteLength > this.memoryCeiling) {
      this.memoryExceeded = true;
      this.interrupted = true;
      return true;
    }
    if (performance.now() > this.deadline) {
      this.interrupted = true;
      return true;
    }
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
    this.deadline = performance.now() + (this.warming ? WARM_UP_BUDGET_MS : this.options.callTimeoutMs);
    this.watch.begin(stage, turn);
  }

  /** Gives a short fresh budget, used to inspect an error value after the call's own budget ran out. */
  extendDeadline(ms: number): void {
    this.interrupted = false;
    this.memoryCeiling = Number.POSITIVE_INFINITY;
    this.deadline = performance.now() + ms;
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
