// Public entry of the evaluator: options, pure scoring and labelling, the designer baseline, and the actor.
export * from './errors.js';
export * from './options.js';
export { scoreEpisodes, agentAdvantages, groupNormalise, groupCentre, mean, type EnvScore, type EnvFacts, type AgentLabel } from './score.js';
export { labelAccepted, labelRejected, designerTrajId } from './label.js';
export { acceptedReward, rejectedReward, learnability, type DesignerRewardInput, type DesignerRewardKind, type DesignerRewardResult } from './designer-reward.js';
export { CopyDetector, type CopyCandidate, type CopyIndex } from './copies.js';
export { settingIndex, settingKey } from './setting-index.js';
export { baselineStep, EMPTY_BASELINE, type BaselineState, type BaselineStep } from './designer-baseline.js';
export { BaselineStore, BASELINE_KEY } from './baseline-store.js';
export { createEvaluatorActor, labeledMsgId } from './evaluator-actor.js';
