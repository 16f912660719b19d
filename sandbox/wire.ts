// Requests and replies between the pool and its workers, and the public request/result shapes of the pool.
import type { WireError } from './errors.js';
import type { EnvSpec } from './spec.js';
import type { ValidationReport, ValidateOptions } from './validation-report.js';

/** Names an episode's state: the code, the seed and every action so far. */
export interface EpisodeRef {
  /** sha256 of the code; optional when `code` is given. */
  codeHash?: string;
  /** The module source; needed only when the pool has not seen this hash (else SandboxCodeMissing). */
  code?: string;
  seed: number;
  /** Key of the live instance (LRU); without it every call replays from reset. */
  episodeId?: string;
}

export interface StepRequest extends EpisodeRef {
  /** All actions of the episode so far, the last one being the action to apply now. */
  actions: string[];
}

export interface ResetResult {
  observation: string;
  /** This instance's privileged hint: what reset() returned (contract v2), else spec.hint (v1). */
  hint: string;
  /** Where `hint` came from. */
  hintSource: 'instance' | 'spec';
  turn: 0;
  spec: EnvSpec;
  codeHash: string;
}

export interface StepResult {
  observation: string;
  reward: number;
  terminated: boolean;
  /** True when the environment said so, or when the harness stopped the episode at spec.maxTurns. */
  truncated: boolean;
  info: Record<string, unknown> | null;
  /** Number of actions applied (1 after the first step). */
  turn: number;
  /** Sum of rewards so far, in [0, 1]. */
  totalReward: number;
  /** terminated || truncated. */
  done: boolean;
  /** Whether a live instance served the step (false: replayed from reset). */
  live: boolean;
}

export type WorkerTask =
  | { kind: 'reset'; seq: number; hash: string; code?: string; seed: number; episodeId?: string }
  | { kind: 'step'; seq: number; hash: string; code?: string; seed: number; actions: string[]; episodeId?: string }
  | { kind: 'validate'; seq: number; hash: string; code: string; options: ValidateOptions };

/** What one Piscina task carries: requests queued while the previous batch ran, served in order. */
export interface WorkerBatch {
  items: WorkerTask[];
}

export type WorkerReply =
  | { ok: true; value: ResetResult | StepResult | ValidationReport; recycled?: boolean }
  | { ok: false; error: WireError; recycled?: boolean };
