// Public entry of the sandbox: the pool, its options, request/result shapes, validation types and typed errors.
export { SandboxPool, type PoolStats } from './pool.js';
export {
  DEFAULT_SANDBOX_OPTIONS, SANDBOX_OPTIONS_SCHEMA, validateSandboxLimits, validateSandboxOptions, type ResolvedSandboxOptions, type SandboxLimits, type SandboxOptions,
} from './options.js';
export type { EpisodeRef, StepRequest, StepResult, ResetResult } from './wire.js';
export {
  DEFAULT_VALIDATE_OPTIONS, VALIDATION_STAGES, type ValidateOptions, type ValidationReport, type ValidationStage,
  type StageReport, type ValidationStats,
} from './validation-report.js';
export type { EnvSpec } from './spec.js';
export { codeHash } from './hash.js';
export { makeRandom } from './prng.js';
export { FIXED_EPOCH_MS } from './prelude.js';
export * from './errors.js';
export { Engine } from './engine.js';
