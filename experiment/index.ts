// Public entry of `spade experiment`: the arms, presets, the compute accounting read from runs, one arm run, the
// learning curve, results.json and summary.md, the command, and the figures read from a run's archive (the loop
// figures; the frontier figures of designing runs).
export * from './errors.js';
export { ARMS, ARM_NAMES, armRunName, isArmName, type ArmName, type ArmSpec } from './arms.js';
export { PRESETS, resolveExperimentConfig, validateExperimentConfig, seedsOf, type ExperimentConfig, type ExperimentConfigInput, type ExperimentEvalOptions } from './presets.js';
export { readRunMetrics, tokenAgreement, type RunMetrics, type RunTokens, type IterationFigures } from './accounting.js';
export { armArgs, armState, finalCheckpointOf, finishedSince, runArm, type ArmRecord, type ArmState, type RunArmOptions } from './run-arm.js';
export { curveCheckpoints, type CurveCheckpoint, type CurvePoint } from './curve.js';
export { evaluateCached, prepareSuite, type CachedEval } from './evaluate.js';
export { buildResults, type ExperimentResults, type ArmResult, type RunResult, type RunInput, type Held } from './results.js';
export { formatSummary } from './summary.js';
export { runExperiment, pinConfig, type ExperimentRunOptions } from './run-experiment.js';
export { experimentCommand, EXPERIMENT_USAGE, type ExperimentCommandIo } from './cli.js';
export { loopFigures, readLoopFigures, slope, slopeInterval, type LoopFigures } from './loop-figures.js';
export { readRunArchive, type RunArchive, type AcceptedLine, type EvaluatedLine, type IterationLine } from './run-archive.js';
export { knobDrift, mergeKnobDrift, lineageOf, KNOB_FAMILIES, type KnobDrift, type KnobHistogram, type FamilyKnobs, type Child } from './knob-drift.js';
export { frontierFigures, pooledStatistic, FRONTIER_BAND, type FrontierFigures, type FrontierUnits, type Figure, type FrontierLevel } from './frontier.js';
export { frontierResults, readFrontierUnits, armDesigns, type FrontierResults } from './frontier-results.js';
