// Public entry of the learner: options, the objective, rows and admission, the trainer, checkpoints, accounting, the actor.
export * from './errors.js';
export * from './options.js';
export { tokenTerm, type ObjectiveKind, type ObjectiveOptions, type TokenTerm } from './objective.js';
export { trajectoryRows, minVersion, staleness, admitted, rowTokens, roleTokens, ROLES, type Role, type Row } from './rows.js';
export { PolicyTrainer, microBatches, roleScales, type UpdateStats, type RoleUpdateStats, type PolicyTrainerOptions } from './policy-trainer.js';
export { LocalTrainer, ThreadTrainer, TrainerThreadError, isTrainerThreadError, type TrainerHandle, type TrainerState } from './trainer-thread.js';
export { saveLearnerCheckpoint, loadLearnerCheckpoint, type LearnerState, type LearnerCheckpoint } from './learner-checkpoint.js';
export { AccountingLog, readAccounting, ACCOUNTING_FILE, type AccountingLine, type DropReason } from './accounting.js';
export { busyFraction, stalenessQuantile, type LearnerStats, type UpdateReport } from './learner-metrics.js';
export { Learner, type LearnerDeps } from './learner.js';
export { createLearnerActor, type LearnerActor, type LearnerActorHooks } from './learner-actor.js';
export { learnerModelFrom } from './learner-model.js';
export { transition, initialLearnerState, type LearnerEvent, type LearnerEffect, type LearnerLogicState, type LearnerLogicOptions } from './learner-logic.js';
export { LearnerLock, LEARNER_LOCK_KEY } from './learner-lock.js';
export { GroupReduce, DEFAULT_GROUP_REDUCE_OPTIONS, JOINING, ABSENT, type GroupReduceOptions, type GroupWait, type PartResult } from './group-reduce.js';
export { GroupTrainer, weightsHash, type GroupRoundStats, type GroupUpdateStats } from './group-trainer.js';
export { publishGroupState, loadGroupState, type GroupState } from './group-state.js';
export * from './group-errors.js';
