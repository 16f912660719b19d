// Public entry of the learner for the other rooms: the actor, the trainers the probe and benchmarks drive, the
// group's reduce, and the accounting log's reader. Tests reach the rest by path.
export { trajectoryRows, type Row } from './rows.js';
export { PolicyTrainer } from './policy-trainer.js';
export { readAccounting } from './accounting.js';
export { type UpdateReport } from './learner-metrics.js';
export { createLearnerActor } from './learner-actor.js';
export { GroupReduce } from './group/reduce.js';
export { GroupTrainer, type GroupRoundStats } from './group/trainer.js';
