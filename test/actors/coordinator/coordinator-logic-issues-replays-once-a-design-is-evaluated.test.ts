// With a replay buffer (loop.replay) the coordinator's jobs design until a design has been evaluated; then jobs
// carry a replay of it (id, family, code) at the configured rate. Library picks are not buffered.
import t from 'tap';
import { transition, type CoordinatorLimits } from '../../../actors/coordinator/coordinator-logic.js';
import { ReplayBuffer } from '../../../actors/coordinator/replay.js';
import { summary } from '../../../actors/coordinator/run-summary.js';
import { freshState, labeledBatch, acceptedEnv as accepted, designerSample as sample, issuedJobs as jobsOf } from './coordinator-state.js';

const o: CoordinatorLimits = { seed: 1, designsPerIteration: 4, maxStaleness: 0, iterations: 10, minutes: Infinity };

t.test('jobs design first, then replay the evaluated design', async (t) => {
  const s = freshState({ replay: new ReplayBuffer({ rate: 1, perFamily: 8, staleness: 0.2, emaRate: 0.5 }) });
  const first = jobsOf(transition(s, { type: 'issued', next: 0, now: 0 }, o).effects);
  t.equal(first.length, 4);
  t.ok(first.every((j) => j.replay === undefined), 'an empty buffer: every job of iteration 0 designs');
  transition(s, { type: 'issued', next: 1, now: 1 }, o);
  transition(s, { type: 'accepted', body: accepted('env-d0', 0, { designer: sample }), now: 2 }, o);
  transition(s, { type: 'accepted', body: accepted('env-lib', 0), now: 2 }, o); // no designer sample: a library pick
  transition(s, { type: 'labeled', body: labeledBatch(0, 'env-d0'), now: 3 }, o);
  transition(s, { type: 'labeled', body: labeledBatch(0, 'env-lib'), now: 3 }, o);
  const next = jobsOf(transition(s, { type: 'policyVersion', version: 1, now: 4 }, o).effects);
  t.same(next.filter((j) => j.replay).map((j) => j.replay), [{ envId: 'env-d0', family: 'games', code: '// env-d0' }], 'the one evaluated design is replayed once; library picks are not buffered');
  t.equal(next.filter((j) => !j.replay).length, 3, 'the other jobs design');
});
