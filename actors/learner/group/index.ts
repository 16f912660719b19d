// Public entry of the learner group for the rest of the learner and the benchmarks: the group's reducer, the
// all-reduce a benchmark drives alone, and what a round reports. Tests reach the rest by path.
export { GroupReducer } from './reducer.js';
export { GroupReduce } from './reduce.js';
export { type GroupRoundStats } from './trainer.js';
