// Limits and sizing of the sandbox, with defaults and validation whose messages name the field.
import { availableParallelism } from 'node:os';
import { SandboxOptionsError } from './errors.js';

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

function positiveInt(o: Record<string, unknown>, field: string, max = Number.MAX_SAFE_INTEGER): void {
  const v = o[field];
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > max) {
    throw new SandboxOptionsError(field, `an integer in 1..${max}`);
  }
}

/** Fills defaults and checks every field; throws SandboxOptionsError naming the first bad field. */
export function validateSandboxOptions(opts: SandboxOptions = {}): ResolvedSandboxOptions {
  const o: ResolvedSandboxOptions = { ...DEFAULT_SANDBOX_OPTIONS };
  for (const [k, v] of Object.entries(opts)) if (v !== undefined) (o as Record<string, unknown>)[k] = v;
  const rec = o as unknown as Record<string, unknown>;
  positiveInt(rec, 'workers', 256);
  positiveInt(rec, 'callTimeoutMs', 60_000);
  positiveInt(rec, 'wallClockKillMs', 600_000);
  positiveInt(rec, 'memoryLimitBytes', 1024 * 1024 * 1024);
  positiveInt(rec, 'maxStackBytes', 8 * 1024 * 1024);
  positiveInt(rec, 'maxObservationChars', 1 << 24);
  positiveInt(rec, 'maxInfoChars', 1 << 24);
  positiveInt(rec, 'maxActionChars', 1 << 24);
  positiveInt(rec, 'maxTurns', 1024);
  positiveInt(rec, 'episodesPerRealm');
  positiveInt(rec, 'liveInstancesPerWorker');
  positiveInt(rec, 'codeCachePerWorker');
  positiveInt(rec, 'codeCachePool');
  positiveInt(rec, 'workerMemoryCapBytes', 2 * 1024 * 1024 * 1024);
  if (o.workerMemoryCapBytes < 4 * o.memoryLimitBytes) throw new SandboxOptionsError('workerMemoryCapBytes', 'at least 4 × options.memoryLimitBytes');
  positiveInt(rec, 'validationBudgetMs');
  if (o.wallClockKillMs <= o.callTimeoutMs) throw new SandboxOptionsError('wallClockKillMs', 'greater than options.callTimeoutMs');
  if (o.memoryLimitBytes < 1024 * 1024) throw new SandboxOptionsError('memoryLimitBytes', 'at least 1 MiB');
  if (o.maxStackBytes < 32 * 1024) throw new SandboxOptionsError('maxStackBytes', 'at least 32 KiB');
  if (o.kitSource !== undefined && typeof o.kitSource !== 'string') throw new SandboxOptionsError('kitSource', 'a string');
  return o;
}
