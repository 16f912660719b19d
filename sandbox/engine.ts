// The worker-side core: code cache by hash, an LRU of live instances keyed by episode, step by replay on a miss,
// validation, and recycling of the QuickJS instance after an out-of-memory or when it grew past its cap.
import { EnvContract, SandboxCodeMissing, SandboxRequestError } from './errors.js';
import { EnvInstance, type StepOutcome } from './instance.js';
import { Lru } from './lru.js';
import type { ResolvedSandboxOptions } from './options.js';
import { QuickJsHost, type CallWatch } from './quickjs-host.js';
import { checkSpec, type EnvSpec } from './spec.js';
import { validateCode } from './validate.js';
import type { ValidateOptions, ValidationReport } from './validation-report.js';
import type { ResetResult, StepResult } from './wire.js';

const WARM_UP_ENV = `export const spec = { name: "warm-up", description: "d", hint: "h", maxTurns: 64 };
export default class Env {
  reset(seed) { this.n = Math.floor(Math.random() * 10); return { observation: "n " + this.n }; }
  step(a) { const ok = a === String(this.n); return { observation: "got " + a, reward: 0, terminated: false, info: { ok } }; }
}`;

interface CodeEntry {
  code: string;
  spec: EnvSpec;
}

interface LiveEpisode {
  hash: string;
  inst: EnvInstance;
}

export class Engine {
  private readonly codes: Lru<string, CodeEntry>;
  private readonly live: Lru<string, LiveEpisode>;

  private constructor(private readonly host: QuickJsHost) {
    const o = host.options;
    this.codes = new Lru(o.codeCachePerWorker);
    this.live = new Lru(o.liveInstancesPerWorker, (ep) => ep.inst.dispose());
  }

  static async create(options: ResolvedSandboxOptions, kitSource: string | undefined, watch?: CallWatch): Promise<Engine> {
    const engine = new Engine(await QuickJsHost.create(options, kitSource, watch));
    engine.warmUp();
    return engine;
  }

  /**
   * Runs a tiny environment a few hundred steps so the WebAssembly and JIT tiers are warm before the first real
   * call: a cold instance can take longer than callTimeoutMs and would wrongly blame the first environment.
   */
  private warmUp(): void {
    this.host.warming = true;
    for (let i = 0; i < 3; i++) {
      try {
        const inst = new EnvInstance(this.host, WARM_UP_ENV);
        try {
          inst.reset(i);
          for (let k = 0; k < 100; k++) inst.step(String(k));
        } finally {
          inst.dispose();
        }
      } catch {
        // Only a slow start can fail here; the next round or the first task runs warmer.
      }
    }
    this.host.warming = false;
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** Marks the QuickJS instance for recycling after the current task. */
  poison(): void {
    this.host.poisoned = true;
  }

  /** Call after every task: drops the QuickJS instance after an OOM or past the memory cap. Returns whether it did. */
  maintain(): Promise<boolean> | false {
    if (!this.host.needsRecycle()) return false;
    return this.recycle();
  }

  private async recycle(): Promise<boolean> {
    this.live.clear(false);
    await this.host.recycle();
    this.warmUp();
    return true;
  }

  private entry(hash: string, code: string | undefined): CodeEntry {
    const cached = this.codes.get(hash);
    if (cached) return cached;
    if (code === undefined) throw new SandboxCodeMissing(hash);
    const inst = new EnvInstance(this.host, code);
    try {
      const e = { code, spec: checkSpec(inst.rawSpec, this.host.options.maxTurns) };
      this.codes.set(hash, e);
      return e;
    } finally {
      inst.dispose();
    }
  }

  private fresh(e: CodeEntry, seed: number): EnvInstance {
    const inst = new EnvInstance(this.host, e.code);
    inst.maxTurns = e.spec.maxTurns;
    try {
      inst.reset(seed);
    } catch (err) {
      inst.dispose();
      throw err;
    }
    return inst;
  }

  reset(hash: string, code: string | undefined, seed: number, episodeId?: string): ResetResult {
    checkSeed(seed);
    const e = this.entry(hash, code);
    if (episodeId !== undefined) this.drop(episodeId);
    const inst = this.fresh(e, seed);
    if (episodeId !== undefined) this.live.set(episodeId, { hash, inst });
    else inst.dispose();
    const hint = inst.instanceHint;
    return {
      observation: inst.lastObservation, hint: hint ?? e.spec.hint, hintSource: hint === null ? 'spec' : 'instance',
      turn: 0, spec: e.spec, codeHash: hash,
    };
  }

  step(hash: string, code: string | undefined, seed: number, actions: string[], episodeId?: string): StepResult {
    checkSeed(seed);
    checkActions(actions, this.host.options.maxActionChars);
    const e = this.entry(hash, code);
    const n = actions.length;
    const ep = episodeId === undefined ? undefined : this.live.get(episodeId);
    if (ep && ep.hash === hash && ep.inst.seed === seed && ep.inst.generation === this.host.generation) {
      const inst = ep.inst;
      if ((n === inst.turn || n === inst.turn + 1) && samePrefix(inst.actions, actions, n - 1)) {
        // n === turn: a redelivered request for the state we are in; answer it again without stepping.
        if (n === inst.turn && inst.lastOutcome) return result(inst, inst.lastOutcome, true);
        if (n === inst.turn + 1) return this.guard(episodeId!, inst, () => result(inst, inst.step(actions[n - 1]!), true));
      }
    }
    if (episodeId !== undefined) this.drop(episodeId);
    const inst = this.fresh(e, seed);
    return this.guard(episodeId, inst, () => {
      let out: StepOutcome | undefined;
      for (let i = 0; i < n; i++) {
        if (inst.done) {
          throw new EnvContract(`the episode already ended at turn ${inst.turn}; ${n - inst.turn} more actions were sent`, {
            stage: 'step', turn: i + 1, value: actions[i],
          });
        }
        out = inst.step(actions[i]!);
      }
      if (episodeId !== undefined) this.live.set(episodeId, { hash, inst });
      else inst.dispose();
      return result(inst, out!, false);
    });
  }

  /** Disposes an instance whose call failed (its state may be half-updated) and forgets it. */
  private guard<T>(episodeId: string | undefined, inst: EnvInstance, body: () => T): T {
    try {
      return body();
    } catch (err) {
      if (episodeId !== undefined && this.live.peek(episodeId)?.inst === inst) this.live.take(episodeId);
      inst.dispose();
      throw err;
    }
  }

  private drop(episodeId: string): void {
    const old = this.live.take(episodeId);
    old?.inst.dispose();
  }

  validate(hash: string, code: string, options: ValidateOptions): ValidationReport {
    const report = validateCode(this.host, code, hash, options);
    if (report.ok && report.spec) this.codes.set(hash, { code, spec: report.spec });
    return report;
  }
}

function result(inst: EnvInstance, o: StepOutcome, live: boolean): StepResult {
  return { ...o, turn: inst.turn, totalReward: inst.total, done: inst.done, live };
}

function samePrefix(a: readonly string[], b: readonly string[], n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function checkSeed(seed: unknown): void {
  if (!Number.isSafeInteger(seed)) throw new SandboxRequestError(`seed must be a safe integer, got ${String(seed)}`, 'seed');
}

export function checkActions(actions: unknown, maxChars: number): void {
  if (!Array.isArray(actions) || actions.length === 0) throw new SandboxRequestError('actions must be a non-empty array of strings', 'actions');
  for (const a of actions) {
    if (typeof a !== 'string') throw new SandboxRequestError('actions must be strings', 'actions');
    if (a.length > maxChars) throw new SandboxRequestError(`an action is longer than ${maxChars} characters`, 'actions');
  }
}

