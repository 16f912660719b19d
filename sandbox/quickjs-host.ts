// One QuickJS WebAssembly instance per worker thread, with the shared time limit (interrupt handler), the
// per-runtime heap and stack limits, and recycling: after an out-of-memory the whole instance is dropped.
import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten';
import type { EnvStage } from './errors.js';
import type { ResolvedSandboxOptions } from './options.js';

/** Tells whoever watches the wall clock (the pool's watchdog) when a call into QuickJS begins and ends. */
export interface CallWatch {
  begin(stage: EnvStage, turn: number): void;
  end(): void;
}

const NO_WATCH: CallWatch = { begin() {}, end() {} };

export class QuickJsHost {
  /** Bumped at every recycle: instances of an older generation belong to a dropped WebAssembly instance. */
  generation = 0;
  /** Set after an out-of-memory (or anything else that may have corrupted the instance): recycle before reuse. */
  poisoned = false;
  /** True when the interrupt handler stopped the current call. */
  interrupted = false;
  private deadline = 0;
  private readonly interrupt = (): boolean => {
    if (performance.now() > this.deadline) {
      this.interrupted = true;
      return true;
    }
    return false;
  };

  private constructor(
    private module: QuickJSWASMModule,
    readonly options: ResolvedSandboxOptions,
    readonly kitSource: string | undefined,
    private readonly watch: CallWatch,
  ) {}

  static async create(options: ResolvedSandboxOptions, kitSource: string | undefined, watch: CallWatch = NO_WATCH): Promise<QuickJsHost> {
    return new QuickJsHost(await newQuickJSWASMModule(RELEASE_SYNC), options, kitSource, watch);
  }

  /** A runtime with this sandbox's limits; each environment instance gets its own. */
  newRuntime(): QuickJSRuntime {
    const rt = this.module.newRuntime();
    rt.setMemoryLimit(this.options.memoryLimitBytes);
    rt.setMaxStackSize(this.options.maxStackBytes);
    rt.setInterruptHandler(this.interrupt);
    return rt;
  }

  beginCall(stage: EnvStage, turn: number): void {
    this.interrupted = false;
    this.deadline = performance.now() + this.options.callTimeoutMs;
    this.watch.begin(stage, turn);
  }

  /** Gives a short fresh budget, used to inspect an error value after the call's own budget ran out. */
  extendDeadline(ms: number): void {
    this.interrupted = false;
    this.deadline = performance.now() + ms;
  }

  endCall(): void {
    this.watch.end();
  }

  /** Bytes of WebAssembly memory this instance has grown to (it never shrinks). */
  memoryBytes(): number {
    return this.module.getWasmMemory().buffer.byteLength;
  }

  needsRecycle(): boolean {
    return this.poisoned || this.memoryBytes() > this.options.workerMemoryCapBytes;
  }

  /**
   * Drops the WebAssembly instance without disposing anything in it (disposing after an OOM can abort the module)
   * and loads a fresh one. Callers must forget every instance of the old generation.
   */
  async recycle(): Promise<void> {
    this.module = await newQuickJSWASMModule(RELEASE_SYNC);
    this.generation++;
    this.poisoned = false;
  }
}
