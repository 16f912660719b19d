// Limits and sizing of the sandbox, with defaults and validation whose messages name the field.
import { availableParallelism } from 'node:os';
import { OptionsError, resolveOptions } from '../runtime/options.js';
import * as s from '../runtime/schema.js';

export interface SandboxOptions {
  /** Worker threads (each one QuickJS WebAssembly instance); never 0: QuickJS never runs on the caller's thread. */
  workers?: number;
  /** Time one call into environment code (module evaluation, reset, step, oracle) may run, enforced by the interrupt handler. */
  callTimeoutMs?: number;
  /** Wall-clock time one call may run before the watchdog terminates its worker (long C builtins never poll the interrupt handler). */
  wallClockKillMs?: number;
  /** QuickJS heap limit per environment instance. */
  memoryLimitBytes?: number;
  /** QuickJS stack limit per instance. */
  maxStackBytes?: number;
  /** Longest observation, in UTF-16 code units. */
  maxObservationChars?: number;
  /** Longest `info` object, as JSON characters. */
  maxInfoChars?: number;
  /** Longest action accepted from the agent (and from an oracle). */
  maxActionChars?: number;
  /** Upper bound of spec.maxTurns. */
  maxTurns?: number;
  /**
   * Episodes one locked-down realm hosts before it is freed (each episode evaluates its module afresh in it).
   * 1 gives every episode a brand-new QuickJS runtime.
   */
  episodesPerRealm?: number;
  /** Live environment instances one worker keeps (LRU keyed by episode). */
  liveInstancesPerWorker?: number;
  /** Distinct modules one worker keeps by code hash. */
  codeCachePerWorker?: number;
  /** Distinct modules the pool keeps by code hash (to resend to a worker that lost them). */
  codeCachePool?: number;
  /** Hard maximum of a worker's WebAssembly memory; past half of it the worker discards its QuickJS instance after the task. */
  workerMemoryCapBytes?: number;
  /** Total time one validation may take (checked between episodes; the watchdog still bounds each call). */
  validationBudgetMs?: number;
  /** Source of the shared `kit` script; undefined = load envs/kit.js when present. */
  kitSource?: string;
}

export type ResolvedSandboxOptions = Required<Omit<SandboxOptions, 'kitSource'>> & { kitSource: string | undefined };

export const DEFAULT_SANDBOX_OPTIONS: ResolvedSandboxOptions = {
  workers: Math.max(1, availableParallelism() - 1),
  callTimeoutMs: 50,
  wallClockKillMs: 1000,
  memoryLimitBytes: 32 * 1024 * 1024,
  maxStackBytes: 256 * 1024,
  maxObservationChars: 4096,
  maxInfoChars: 4096,
  maxActionChars: 4096,
  maxTurns: 64,
  episodesPerRealm: 64,
  liveInstancesPerWorker: 128,
  codeCachePerWorker: 64,
  codeCachePool: 1024,
  workerMemoryCapBytes: 512 * 1024 * 1024,
  validationBudgetMs: 20_000,
  kitSource: undefined,
};

const positiveInt = (max = Number.MAX_SAFE_INTEGER) => s.int({ min: 1, max });

/** The resolved form of SandboxOptions; unknown keys are rejected. */
// `as`: the resolved type spells optional fields `x: T | undefined`; the schema infers `x?: T`.
export const SANDBOX_OPTIONS_SCHEMA = s.object(
  {
    workers: positiveInt(256),
    callTimeoutMs: positiveInt(60_000),
    wallClockKillMs: positiveInt(600_000),
    memoryLimitBytes: s.int({ min: 1024 * 1024, max: 1024 * 1024 * 1024 }),
    maxStackBytes: s.int({ min: 32 * 1024, max: 8 * 1024 * 1024 }),
    maxObservationChars: positiveInt(1 << 24),
    maxInfoChars: positiveInt(1 << 24),
    maxActionChars: positiveInt(1 << 24),
    maxTurns: positiveInt(1024),
    episodesPerRealm: positiveInt(),
    liveInstancesPerWorker: positiveInt(),
    codeCachePerWorker: positiveInt(),
    codeCachePool: positiveInt(),
    workerMemoryCapBytes: positiveInt(2 * 1024 * 1024 * 1024),
    validationBudgetMs: positiveInt(),
    kitSource: s.optional(s.string()),
  },
  { strict: true },
) as s.Check<ResolvedSandboxOptions>;

/**
 * Fills defaults and checks every field; throws OptionsError naming the first bad or unknown one under `path`
 * (`sandbox` by default: the cluster config's section; the config loader passes `config.sandbox`).
 */
export function validateSandboxOptions(opts: SandboxOptions = {}, path = 'sandbox'): ResolvedSandboxOptions {
  const o = resolveOptions(SANDBOX_OPTIONS_SCHEMA, DEFAULT_SANDBOX_OPTIONS, opts, path);
  if (o.workerMemoryCapBytes < 4 * o.memoryLimitBytes)
    throw new OptionsError(`${path}.workerMemoryCapBytes`, `at least 4 × ${path}.memoryLimitBytes (${4 * o.memoryLimitBytes})`, o.workerMemoryCapBytes);
  if (o.wallClockKillMs <= o.callTimeoutMs)
    throw new OptionsError(`${path}.wallClockKillMs`, `greater than ${path}.callTimeoutMs (${o.callTimeoutMs})`, o.wallClockKillMs);
  return o;
}

/** What the cluster config sets for every pool a process creates (`loop.sandbox.limits`): all options but the pool's size. */
export type SandboxLimits = Omit<SandboxOptions, 'workers'>;

/** Checks limits as validateSandboxOptions does; `workers` is refused (each pool is sized where it is created). */
export function validateSandboxLimits(limits: SandboxLimits = {}, path = 'loop.sandbox.limits'): SandboxLimits {
  const given = limits as Record<string, unknown>;
  if (typeof given === 'object' && given !== null && given.workers !== undefined)
    throw new OptionsError(`${path}.workers`, 'no value: pools are sized by roles.sandbox.threads (the sandbox role) and loop.sandbox.workers (a local pool)', given.workers);
  const { workers: _, ...resolved } = validateSandboxOptions(limits, path);
  return resolved;
}
