// Shapes of a validation: its options and the report of stages it returns.
import type { WireError } from './errors.js';
import type { EnvSpec } from './spec.js';

export const VALIDATION_STAGES = [
  'parse', 'contract', 'determinism', 'limits', 'return-range', 'termination', 'probes', 'oracle', 'hint-leak',
] as const;
export type ValidationStage = (typeof VALIDATION_STAGES)[number];

export interface ValidateOptions {
  /** Seeds per probe (random agent, each constant agent, oracle). */
  seeds?: number;
  /** First seed; the others follow. */
  firstSeed?: number;
  /** The random and the best constant agent must score a mean return below this. */
  probeThreshold?: number;
  /** The oracle (when exported) must score a mean return at least this. */
  oracleThreshold?: number;
  /** Random-agent episodes per seed. */
  randomEpisodesPerSeed?: number;
}

export const DEFAULT_VALIDATE_OPTIONS: Required<ValidateOptions> = {
  seeds: 16,
  firstSeed: 1,
  probeThreshold: 0.2,
  oracleThreshold: 0.5,
  randomEpisodesPerSeed: 2,
};

export interface StageReport {
  stage: ValidationStage;
  ok: boolean;
  ms: number;
  detail?: string;
  error?: WireError;
}

export interface ValidationStats {
  episodes: number;
  steps: number;
  randomMean: number | null;
  constantMean: number | null;
  constantAction: string | null;
  oracleMean: number | null;
  oracleWinRate: number | null;
  maxCallMs: number;
  endedByEnv: number | null;
  /** Mean return of the best hint-word probe agent (hint-leak stage), when it ran. */
  hintProbeMean: number | null;
}

export interface ValidationReport {
  ok: boolean;
  codeHash: string;
  spec: EnvSpec | null;
  stages: StageReport[];
  /** The first failing stage, when any. */
  failed: ValidationStage | null;
  stats: ValidationStats;
  ms: number;
}
