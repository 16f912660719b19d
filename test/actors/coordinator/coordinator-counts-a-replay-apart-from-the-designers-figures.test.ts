// A replay's acceptance counts as replayed, not as a design (proposed, accepted, novelty stay the designer's), and its
// evaluation is archived as `replayed`, outside the designer's regret and evaluated counts, while its batch counts
// toward the iteration and the trajectories, and its evaluation visits the design it replayed.
import t from 'tap';
import { transition, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { ReplayBuffer } from '../../../actors/coordinator/replay.js';
import { summary } from '../../../actors/coordinator/run-summary.js';
import { freshState, labeledBatch, acceptedEnv as accepted, designerSample as sample } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 4, maxStaleness: 0, iterations: 10, minutes: Infinity };

t.test("a replay counts apart from the designer's figures", async (t) => {
  const s = freshState({ replay: new ReplayBuffer({ rate: 1, perFamily: 8, staleness: 0.2, emaRate: 0.5 }) });
  transition(s, { type: 'accepted', body: accepted('env-d0', 0, { designer: sample }), now: 1 }, o);
  transition(s, { type: 'labeled', body: labeledBatch(0, 'env-d0'), now: 2 }, o);
  const fx = transition(s, { type: 'accepted', body: accepted('env-r1', 1, { replayOf: 'env-d0' }), now: 3 }, o).effects;
  t.same(fx.filter((f) => f.type === 'archive'), [], 'no accepted record: its code is archived under env-d0');
  const lab = transition(s, { type: 'labeled', body: { ...labeledBatch(1, 'env-r1'), returnNoHint: 1, regret: 0, replayOf: 'env-d0' }, now: 4 }, o).effects;
  t.same(lab.filter((f) => f.type === 'archive').map((f) => f.type === 'archive' && [f.kind, f.record.replayOf]), [['replayed', 'env-d0']]);
  const m = summary(s.stats, 5);
  t.same([m.proposed, m.accepted, m.evaluated, m.replayed, m.meanReplayReturnNoHint], [1, 1, 1, 1, 1], 'one design accepted and evaluated; one replay, solved');
  t.equal(m.meanReturnNoHint, 0.5, "the designer's figures hold the design's evaluation only");
  t.equal(s.stats.labeledBatches, 2, 'both batches count toward the iteration and the trajectories');
  t.equal(s.replay!.levels.entries.get('env-d0')!.visits, 2, "the replay's evaluation visited env-d0");
});
