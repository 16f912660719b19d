// A QuickJS runtime and context prepared for environments: the prelude (seeded Math.random, fixed Date, the
// driver), the kit, then a lockdown that freezes every built-in and global. Frozen, it holds no state an
// environment can change, so one realm serves many episodes in turn (each evaluates its module afresh).
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import {
  EnvContract, EnvError, EnvMemory, EnvReturnRange, EnvStack, EnvSyntax, EnvThrew, EnvTimeout, SandboxKitError,
  truncateValue, type EnvStage,
} from './errors.js';
import { PRELUDE_SOURCE } from './prelude.js';
import type { QuickJsHost } from './quickjs-host.js';

/** Driver functions of the prelude, by index. */
export enum DriverFn {
  install,
  reset,
  step,
  oracle,
  prepare,
  lockdown,
}
const DRIVER_FNS = ['install', 'reset', 'step', 'oracle', 'prepare', 'lockdown'] as const;

const INSPECT_MS = 20;
const LOAD_BUDGET_MS = 2000;

export class Realm {
  readonly generation: number;
  /** Episodes (module evaluations) this realm has hosted. */
  uses = 0;
  /** Set when a call was interrupted: the runtime may hold half-built state that QuickJS cannot free cleanly. */
  tainted = false;
  private readonly rt: QuickJSRuntime;
  readonly ctx: QuickJSContext;
  private readonly fns: QuickJSHandle[] = [];
  private freed = false;

  constructor(private readonly host: QuickJsHost) {
    this.generation = host.generation;
    this.rt = host.newRuntime();
    this.rt.setModuleLoader(() => ({ error: new EnvSyntax('imports are not allowed in environments', { stage: 'parse' }) }));
    this.ctx = this.rt.newContext();
    try {
      this.loadDriver();
    } catch (err) {
      this.free();
      throw err;
    }
  }

  /** Prelude and kit are our code: they get a generous budget so a cold worker never blames the environment. */
  private loadDriver(): void {
    const h = this.host;
    h.beginCall('load', 0);
    h.ownCodeBudget(Math.max(h.options.callTimeoutMs, LOAD_BUDGET_MS));
    try {
      const pr = this.ctx.evalCode(PRELUDE_SOURCE, 'sandbox-prelude.js');
      if (pr.error) throw new SandboxKitError(`the sandbox prelude failed to evaluate: ${this.inspect(pr.error).message}`);
      const driver = pr.value;
      for (const k of DRIVER_FNS) this.fns.push(this.ctx.getProp(driver, k));
      driver.dispose();
      if (h.kitSource !== undefined) {
        const r = this.ctx.evalCode(h.kitSource, 'kit.js');
        if (r.error) {
          const detail = this.inspect(r.error);
          throw new SandboxKitError(`envs/kit.js failed to evaluate: ${detail.message}`);
        }
        r.value.dispose();
      }
    } finally {
      h.endCall();
    }
    this.call(DriverFn.lockdown, [], 'load', 0, true, true);
  }

  evalModule(code: string): QuickJSHandle {
    const h = this.host;
    h.beginCall('parse', 0);
    try {
      const r = this.ctx.evalCode(code, 'env.js', { type: 'module' });
      if (r.error) {
        if (h.interrupted) {
          r.error.dispose();
          throw this.limitBreach('parse', 0, 'module evaluation');
        }
        const d = this.inspect(r.error);
        if (d.name === 'SyntaxError') throw new EnvSyntax(`SyntaxError: ${d.message}`, { stage: 'parse', value: truncateValue(d.message) });
        if (/could not load module|imports are not allowed/i.test(d.message)) {
          throw new EnvSyntax('imports are not allowed in environments', { stage: 'parse', value: truncateValue(d.message) });
        }
        throw this.classified(d, 'parse', 0, 'module evaluation');
      }
      return r.value;
    } finally {
      h.endCall();
    }
  }

  /** Reads name and message of an error handle under a short fresh budget, never trusting it, and disposes it. */
  private inspect(err: QuickJSHandle): { name: string; message: string } {
    this.host.extendDeadline(INSPECT_MS);
    try {
      const d: unknown = this.ctx.dump(err);
      if (d !== null && typeof d === 'object') {
        const o = d as { name?: unknown; message?: unknown };
        return { name: String(o.name ?? 'Error'), message: String(o.message ?? truncateValue(d)) };
      }
      return { name: 'value', message: truncateValue(d) };
    } catch {
      return { name: 'unknown', message: '<uninspectable thrown value>' };
    } finally {
      if (err.alive) err.dispose();
    }
  }

  /** The interrupt handler stopped a call: for time, or because it grew the memory past its allowance. */
  private limitBreach(stage: EnvStage, turn: number, what: string): EnvError {
    const o = this.host.options;
    this.tainted = true;
    if (this.host.overAllowance()) {
      this.host.poisoned = true;
      return new EnvMemory(`${what} allocated more than ${o.memoryLimitBytes} bytes`, { stage, turn });
    }
    return new EnvTimeout(`${what} exceeded ${o.callTimeoutMs} ms`, { stage, turn });
  }

  private classified(d: { name: string; message: string }, stage: EnvStage, turn: number, what: string): EnvError {
    if (d.message === 'out of memory' || d.message === 'string too long') {
      this.host.poisoned = true;
      return new EnvMemory(`${what} ran out of memory (${this.host.options.memoryLimitBytes} bytes)`, { stage, turn, value: d.message });
    }
    if (d.message === 'stack overflow') return new EnvStack(`${what} overflowed the stack`, { stage, turn, value: d.message });
    return new EnvThrew(`${what} threw ${d.name}: ${truncateValue(d.message)}`, { stage, turn, value: truncateValue(d.message) });
  }

  /** Calls a driver function; returns the payload after 'o', or throws the typed error. `ownCode` calls run only our code. */
  call(fn: DriverFn, args: QuickJSHandle[], stage: EnvStage, turn: number, disposeArgs = true, ownCode = false): string {
    const h = this.host;
    h.beginCall(stage, turn);
    if (ownCode) h.ownCodeBudget(Math.max(h.options.callTimeoutMs, LOAD_BUDGET_MS));
    let out: string;
    try {
      const r = this.ctx.callFunction(this.fns[fn]!, this.ctx.undefined, args);
      if (disposeArgs) for (const a of args) if (a.alive) a.dispose();
      if (r.error) {
        if (h.interrupted) {
          r.error.dispose();
          throw this.limitBreach(stage, turn, stage);
        }
        throw this.classified(this.inspect(r.error), stage, turn, stage);
      }
      out = this.ctx.getString(r.value);
      r.value.dispose();
      if (this.rt.hasPendingJob()) this.drainJobs(stage, turn);
      if (h.overAllowance()) throw this.limitBreach(stage, turn, stage);
    } finally {
      h.endCall();
    }
    if (out.charCodeAt(0) === 111 /* o */) return out.slice(1);
    throw this.driverFailure(out.slice(1), stage, turn);
  }

  /** Runs queued Promise jobs at a fixed point (after each call), within the same time budget. */
  private drainJobs(stage: EnvStage, turn: number): void {
    const h = this.host;
    while (this.rt.hasPendingJob()) {
      const r = this.rt.executePendingJobs(256);
      if (r.error) {
        if (h.interrupted) {
          r.error.dispose();
          throw this.limitBreach(stage, turn, `Promise jobs queued by ${stage}`);
        }
        const d = this.inspect(r.error);
        if (d.message === 'out of memory' || d.message === 'stack overflow') throw this.classified(d, stage, turn, 'a Promise job');
      }
      // An interrupted job is not always reported as an error by executePendingJobs: trust the handler's flag.
      if (h.interrupted) throw this.limitBreach(stage, turn, `Promise jobs queued by ${stage}`);
    }
  }

  private driverFailure(json: string, stage: EnvStage, turn: number): EnvError {
    const [kind, message, value] = JSON.parse(json) as [string, string, string | null];
    const details = { stage, turn, value: value === null ? undefined : truncateValue(value) };
    switch (kind) {
      case 'memory':
        this.host.poisoned = true;
        return new EnvMemory(`${stage} ran out of memory: ${message}`, details);
      case 'stack':
        return new EnvStack(`${stage} overflowed the stack`, details);
      case 'range':
        return new EnvReturnRange(message, details);
      case 'syntax':
        return new EnvSyntax(message, details);
      case 'contract':
        return new EnvContract(message, details);
      default:
        return new EnvThrew(message, details);
    }
  }

  /** Whether the realm can host another episode: same generation, never interrupted, no queued jobs. */
  reusable(maxUses: number): boolean {
    return !this.freed && !this.tainted && this.uses < maxUses && this.generation === this.host.generation
      && !this.host.poisoned && !this.rt.hasPendingJob();
  }

  /**
   * Frees the runtime. Realms of a dropped WebAssembly generation are never touched. A tainted realm, or one with
   * Promise jobs still queued, cannot be freed safely (QuickJS aborts on leftover objects), so it is abandoned and
   * the host marked for recycling instead.
   */
  free(): void {
    if (this.freed) return;
    this.freed = true;
    if (this.generation !== this.host.generation || this.host.poisoned) return;
    if (this.tainted || this.rt.hasPendingJob()) {
      this.host.poisoned = true;
      return;
    }
    try {
      for (const f of this.fns) if (f.alive) f.dispose();
      this.ctx.dispose();
      this.rt.dispose();
    } catch {
      this.host.poisoned = true;
    }
  }
}
