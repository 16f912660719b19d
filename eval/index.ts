// Public entry of held-out evaluation: `spade eval` (run-eval, cli-eval), its statistics (bootstrap), its report,
// suites, and the novelty measure the loop scores each accepted environment with.
export * from './errors.js';
export { loadSuite, moduleFiles, type Suite, type SuiteModule } from './suite.js';
export { playSuite, type PlayableEnv, type EnvReturns, type PlayProgress, type PlaySuiteOptions, type PlaySuiteResult } from './play.js';
export {
  estimate, pairedDifference, clusterReplicates, tableMean, quantile, DEFAULT_BOOTSTRAP_OPTIONS, type BootstrapOptions, type Estimate, type ReturnTable,
} from './bootstrap.js';
export { buildReport, formatReport, type EvalReport, type CheckpointResult, type FamilyResult, type EnvResult, type PairedResult } from './report.js';
export { runEval, DEFAULT_EVAL_SEEDS, DEFAULT_FIRST_SEED, type EvalOptions, type EvalRun } from './run-eval.js';
export { evalCommand, EVAL_USAGE, type EvalCommandIo } from './cli-eval.js';
export {
  NoveltyIndex, DEFAULT_NOVELTY_THRESHOLD, codeTokens, normalisedHash, trigrams, jaccard, type NoveltyReport,
} from './novelty.js';
export { libraryNoveltyIndex } from './novelty-library.js';
export { runEstimate, runPairedDifference, runReplicates, averageTables, type BootstrapLevel, type RunEstimate } from './run-bootstrap.js';
