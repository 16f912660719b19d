// One environment instance: the module evaluated in a realm borrowed from the host, and the episode's state
// (seed, turn, running return, actions). Every call goes through the prelude's driver, so the host reads one
// string back per call.
import { EnvContract, EnvReturnRange, truncateValue } from './errors.js';
import type { QuickJsHost } from './quickjs-host.js';
import { DriverFn, type Realm } from './realm.js';

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
  /** The hint reset() returned for this instance (contract v2), or null: then spec.hint is the hint. */
  instanceHint: string | null = null;
  lastOutcome: StepOutcome | undefined;
  private readonly realm: Realm;
  private disposed = false;

  constructor(private readonly host: QuickJsHost, code: string) {
    this.generation = host.generation;
    this.maxTurns = host.options.maxTurns;
    this.realm = host.takeRealm();
    try {
      const r = this.realm;
      r.uses++;
      r.call(DriverFn.prepare, [], 'load', 0, true, true);
      const ns = r.evalModule(code);
      const o = host.options;
      const ctx = r.ctx;
      const args = [ns, ctx.newNumber(o.maxObservationChars), ctx.newNumber(o.maxInfoChars), ctx.newNumber(o.maxActionChars)];
      type Field = [string, string];
      const [name, description, hint, maxTurns, hasOracle] = JSON.parse(r.call(DriverFn.install, args, 'load', 0)) as [Field, Field, Field, Field, boolean];
      this.rawSpec = { fields: { name, description, hint, maxTurns }, hasOracle };
    } catch (err) {
      this.dispose();
      throw err;
    }
  }

  /** Starts the episode; returns the first observation. */
  reset(seed: number): string {
    this.seed = seed;
    const [obs, hint] = JSON.parse(this.realm.call(DriverFn.reset, [this.realm.ctx.newNumber(seed)], 'reset', 0)) as [string, string | null];
    this.turn = 0;
    this.total = 0;
    this.done = false;
    this.actions.length = 0;
    this.lastObservation = obs;
    this.instanceHint = hint;
    this.lastOutcome = undefined;
    return obs;
  }

  step(action: string): StepOutcome {
    const turn = this.turn + 1;
    if (this.done) throw new EnvContract(`the episode already ended at turn ${this.turn}`, { stage: 'step', turn, value: truncateValue(action) });
    const out = this.realm.call(DriverFn.step, [this.realm.ctx.newString(action)], 'step', turn);
    const raw = JSON.parse(out) as [string, number, boolean, boolean, Record<string, unknown> | null];
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
    return JSON.parse(this.realm.call(DriverFn.oracle, [], 'oracle', this.turn, false)) as string;
  }

  /** Hands the realm back to the host (which reuses it, frees it, or abandons it if it was interrupted). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.host.returnRealm(this.realm);
  }
}
