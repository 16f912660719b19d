// N in the loss counts every admitted trajectory of the minibatch, as docs/loop.md says: the learner logic skips
// the compute of zero-advantage trajectories (skipZeroAdvantage) but their trained tokens stay in their role's
// token-mean denominator (the train effect's norm), so skipping changes the cost, not the loss.
import t from 'tap';
import { initialLearnerState, transition, type LearnerLogicState } from '../../../actors/learner/learner-logic.js';
import type { Labeled } from '../../../actors/loop/messages.js';
import { freshStats, logicOptions, traj } from './tiny.js';

const designer = (id: string, tokens: number[], advantage: number): Labeled => ({ ...traj(id, tokens, advantage, 0), role: 'designer' });
const batch = {
  batchId: 'b0', iteration: 0,
  trajectories: [
    designer('d', [50, 51, 52, 53, 54], 0.5),
    traj('a1', [60, 61], 1, 0), traj('a0', [62, 63, 64], 0, 0), traj('a2', [65], -1, 0), designer('d0', [55, 56], 0),
  ],
};

for (const skipZeroAdvantage of [true, false]) {
  t.test(`skipZeroAdvantage ${skipZeroAdvantage}`, async (t) => {
    const o = logicOptions({ minibatchTrajectories: 5, skipZeroAdvantage });
    const s: LearnerLogicState<string> = initialLearnerState(freshStats(), [], 0);
    const train = transition(s, { type: 'received', ref: 'm0', streamSeq: 1, batch, now: 0 }, o).effects.find((f) => f.type === 'train');
    if (!train || train.type !== 'train') return t.fail('a train effect');
    t.same(train.norm, { designer: 7, agent: 6 }, 'denominators: 5 + 2 designer tokens, 2 + 3 + 1 agent tokens');
    const trained = train.rows.map((r) => r.trajId).sort();
    t.same(trained, skipZeroAdvantage ? ['a1', 'a2', 'd'] : ['a0', 'a1', 'a2', 'd', 'd0'], 'rows computed');
    t.same(train.rows.map((r) => r.role).sort(), skipZeroAdvantage ? ['agent', 'agent', 'designer'] : ['agent', 'agent', 'agent', 'designer', 'designer']);
    t.equal(s.stats.skipped, skipZeroAdvantage ? 2 : 0);
  });
}
