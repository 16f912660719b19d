// Public entry of the learner for the other rooms: the actor, the trainers the probe and benchmarks drive (and how
// they cut a minibatch into passes), the group's all-reduce and round report (group/), and the accounting log's
// reader. Tests reach the rest by path.
export { trajectoryRows, type Row } from './rows.js';
export { PolicyTrainer } from './policy-trainer.js';
export { microBatches } from './micro-batches.js';
export { readAccounting } from './accounting.js';
export { type UpdateReport } from './learner-metrics.js';
export { createLearnerActor } from './learner-actor.js';
export { GroupReduce, type GroupRoundStats } from './group/index.js';
