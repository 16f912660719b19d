// Public entry of the warm start: supervised training of the base checkpoint from the environment library (designer)
// and oracle episodes (agent), and the designer evaluation that measures how many sampled modules validate.
export * from './errors.js';
export { drillEnv, loadLibrary, vmEnv, LIBRARY_FAMILIES, type LibraryEnv, type LibraryFamily, type LibrarySpec, type VmEnv } from './library.js';
export { oracleEpisodes, type OracleEpisode, type OracleEpisodeStats, type SeedPlan, type OraclePlay } from './oracle-episodes.js';
export { designerEdits, type DesignerEdit, type EditStats, type EditPlan } from './edits.js';
export { mutate, nudge, shuffled, type Mutation } from './mutate.js';
export { documentWords } from '../actors/designer/index.js';
export { reword, proseSpans, SYNONYMS } from './reword.js';
export { openDocuments, standInDocuments, type DocumentSource, type DocumentSourceKind } from './documents.js';
export { designerEditExample, agentExamples, sampleMemory, libraryMemoryLine, type Example, type Role } from './examples.js';
export { WarmStartData, type DataStreamOptions } from './data-stream.js';
export { DEFAULT_WARM_START_OPTIONS, validateWarmStartOptions, type WarmStartOptions, type ResolvedWarmStartOptions, type WarmStartModelOptions } from './options.js';
export { knobSettings, type KnobSettings, type SettingPlan } from './knob-settings.js';
export { warmStart, designerEditInputs, knobSettingsOf, type WarmStartSummary, type LossPoint } from './train.js';
export { NEAR_TIER_SETTINGS, knobSetting } from './reserved.js';
export { evaluateDesigner, DEFAULT_DESIGNER_EVAL_OPTIONS, type DesignerEvalOptions, type DesignerEvalResult, type DesignerSample } from './designer-eval.js';
export { evaluateAgent, DEFAULT_AGENT_EVAL_OPTIONS, type AgentEvalOptions, type AgentEvalResult, type AgentEnvResult } from './agent-eval.js';
