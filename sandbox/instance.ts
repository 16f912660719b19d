// One live environment: its own QuickJS runtime and context holding the prelude, the kit and the module.
// Every call goes through the prelude's driver, so the host only ever reads one string back per call.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import {
  EnvContract, EnvError, EnvMemory, EnvReturnRange, EnvStack, EnvSyntax, EnvThrew, EnvTimeout, SandboxKitError,
  truncateValue, type EnvStage,
} from './errors.js';
import { PRELUDE_SOURCE } from './prelude.js';
import type { QuickJsHost } from './quickjs-host.js';

/** What one step returns, after the harness applied truncation at maxTurns. */
export interface StepOutcome {
  observation: string;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: Record<string, unknown> | null;
}

/** spec fields as read from the module, with their JS types, before validation. */
export interface RawSpec {
  fields: Record<'name' | 'description' | 'hint' | 'maxTurns', [type: string, value: string]>;
  hasOracle: boolean;
}

const RANGE_EPSILON = 1e-9;
const INSPECT_MS = 20;
const LOAD_BUDGET_MS = 2000;

export class EnvInstance {
  readonly generation: number;
  readonly rawSpec: RawSpec;
  /** Set by the owner once the spec is validated; the harness truncates there. */
  maxTurns: number;
  seed = 0;
  turn = 0;
  total = 0;
  done = false;
  readonly actions: string[] = [];
  lastObservation = '';
  lastOutcome: StepOutcome | undefined;
  private readonly rt: QuickJSRuntime;
  private readonly ctx: QuickJSContext;
  private readonly fns: QuickJSHandle[] = [];
  private disposed = false;
  /** Set when a call was interrupted: its runtime may hold half-built state that QuickJS cannot free cleanly. */
  private tainted = false;

  constructor(private readonly host: QuickJsHost, code: string) {
    this.generation = host.generation;
    this.maxTurns = host.options.maxTurns;
    this.rt = host.newRuntime();
    this.rt.setModuleLoader(() => ({ error: new EnvSyntax('imports are not allowed in environments', { stage: 'parse' }) }));
    this.ctx = this.rt.newContext();
    try {
      this.loadDriver();
      const ns = this.evalModule(code);
      try {
        const o = host.options;
        const args = [ns, this.ctx.newNumber(o.maxObservationChars), this.ctx.newNumber(o.maxInfoChars), this.ctx.newNumber(o.maxActionChars)];
        const out = this.call(this.fns[0]!, args, 'load', true);
        type Field = [string, string];
        const [name, description, hint, maxTurns, hasOracle] = JSON.parse(out) as [Field, Field, Field, Field, boolean];
        this.rawSpec = { fields: { name, description, hint, maxTurns }, hasOracle };
      } finally {
        if (ns.alive) ns.dispose();
      }
    } catch (err) {
      this.dispose();
      throw err;
    }
  }

  /** Prelude and kit are our code: they get a generous budget so a cold worker never blames the environment. */
  private loadDriver(): void {
    const h = this.host;
    h.beginCall('load', 0);
    h.extendDeadline(Math.max(h.options.callTimeoutMs, LOAD_BUDGET_MS));
    try {
      const pr = this.ctx.evalCode(PRELUDE_SOURCE, 'sandbox-prelude.js');
      if (pr.error) throw new SandboxKitError(`the sandbox prelude failed to evaluate: ${this.inspect(pr.error).message}`);
      const driver = pr.value;
      for (const k of ['install', 'reset', 'step', 'oracle']) this.fns.push(this.ctx.getProp(driver, k));
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
  }

  private evalModule(code: string): QuickJSHandle {
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

  /** Calls a driver function; returns the payload after 'o', or throws the typed error. */
  private call(fn: QuickJSHandle, args: QuickJSHandle[], stage: EnvStage, disposeArgs: boolean): string {
    const h = this.host;
    const turn = stage === 'step' ? this.turn + 1 : this.turn;
    h.beginCall(stage, turn);
    let out: string;
    try {
      const r = this.ctx.callFunction(fn, this.ctx.undefined, args);
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

  /** Starts the episode; returns the first observation. */
  reset(seed: number): string {
    this.seed = seed;
    const obs = JSON.parse(this.call(this.fns[1]!, [this.ctx.newNumber(seed)], 'reset', true)) as string;
    this.turn = 0;
    this.total = 0;
    this.done = false;
    this.actions.length = 0;
    this.lastObservation = obs;
    this.lastOutcome = undefined;
    return obs;
  }

  step(action: string): StepOutcome {
    const turn = this.turn + 1;
    if (this.done) throw new EnvContract(`the episode already ended at turn ${this.turn}`, { stage: 'step', turn, value: truncateValue(action) });
    const raw = JSON.parse(this.call(this.fns[2]!, [this.ctx.newString(action)], 'step', true)) as [string, number, boolean, boolean, Record<string, unknown> | null];
    const [observation, reward, terminated] = raw;
    const total = this.total + reward;
    if (total < -RANGE_EPSILON || total > 1 + RANGE_EPSILON) {
      throw new EnvReturnRange(`the running return left [0, 1]: ${total} after reward ${reward}`, { stage: 'step', turn, value: String(total) });
    }
    this.turn = turn;
    this.total = total;
    this.actions.push(action);
    const truncated = raw[3] || (!terminated && turn >= this.maxTurns);
    this.done = terminated || truncated;
    this.lastObservation = observation;
    this.lastOutcome = { observation, reward, terminated, truncated, info: raw[4] };
    return this.lastOutcome;
  }

  /** The module's reference action for the current state (validation only). */
  oracle(): string {
    return JSON.parse(this.call(this.fns[3]!, [], 'oracle', false)) as string;
  }

  /**
   * Frees the runtime. Instances of a dropped WebAssembly generation are never touched. An interrupted instance,
   * or one with Promise jobs still queued, cannot be freed safely (QuickJS aborts on leftover objects), so it is
   * abandoned and the host marked for recycling instead.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
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
