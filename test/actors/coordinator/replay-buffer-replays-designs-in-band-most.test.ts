// The coordinator's replay buffer holds a design once it is evaluated and scores it by SFL's learnability of its
// latest no-hint solve rate, p(1 − p): a design in band is replayed more often than a solved or an unsolved one, and
// staleness still brings those back. Nothing is replayed before an evaluation; a pick carries the id, family and code.
import t from 'tap';
import { ReplayBuffer } from '../../../actors/coordinator/replay.js';

const options = { rate: 1, perFamily: 3, staleness: 0.2, emaRate: 0.5 };
const seeds = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i * 7919);

t.test('designs enter once evaluated, and replays favour the ones in band', async (t) => {
  const b = new ReplayBuffer(options);
  t.same(b.picks(0, seeds(4)), [null, null, null, null], 'nothing to replay before an evaluation: every job designs');
  b.onAccepted('band', 'games', 'code band');
  b.onAccepted('solved', 'games', 'code solved');
  b.onAccepted('unsolved', 'tools', 'code unsolved');
  t.same(b.picks(0, seeds(2)), [null, null], 'accepted but not evaluated: not replayed yet');
  b.onEvaluated('band', 0.5, 0);
  b.onEvaluated('solved', 1, 0);
  b.onEvaluated('unsolved', 0, 0);
  t.equal(b.levels.entries.get('band')!.score, 0.25, 'learnability p(1 − p) at p = 1/2');
  t.equal(b.levels.entries.get('solved')!.score, 0);
  const counts: Record<string, number> = {};
  for (let i = 1; i <= 400; i++) {
    // Each iteration's picks count as visits; an evaluation puts each back at its score.
    const [p] = b.picks(i, [i * 104729]);
    counts[p!.envId] = (counts[p!.envId] ?? 0) + 1;
    b.onEvaluated(`replay-${i}`, p!.envId === 'band' ? 0.5 : p!.envId === 'solved' ? 1 : 0, i, p!.envId);
  }
  t.ok(counts.band! > counts.solved! && counts.band! > counts.unsolved!, `in band replayed most (${JSON.stringify(counts)})`);
  t.ok(counts.solved! > 0 && counts.unsolved! > 0, 'staleness still brings back the others');
  const [pick] = b.picks(401, [1]);
  t.same(pick, { envId: pick!.envId, family: pick!.envId === 'unsolved' ? 'tools' : 'games', code: `code ${pick!.envId}` }, 'a pick carries the id, family and code');
});
