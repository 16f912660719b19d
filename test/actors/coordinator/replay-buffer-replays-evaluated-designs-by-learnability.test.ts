// The coordinator's replay buffer holds the designed environments once they are evaluated, scores each by SFL's
// learnability of its latest no-hint solve rate, and replays by that score mixed with staleness: an environment in
// band is replayed more often than a solved or an unsolved one, a replay's evaluation moves the score of the
// environment it replays, an evaluation that arrives before its acceptance still counts, each family keeps at most
// perFamily environments, and a rate of 0 replays nothing.
import t from 'tap';
import { ReplayBuffer } from '../../../actors/coordinator/replay.js';
import { learnabilityOf } from '../../../actors/coordinator/level-buffer.js';

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

t.test('a replay moves the score of what it replays; one iteration picks distinct environments', async (t) => {
  const b = new ReplayBuffer({ ...options, emaRate: 1 });
  for (const id of ['a', 'b']) (b.onAccepted(id, 'games', `code ${id}`), b.onEvaluated(id, 0.5, 0));
  b.onEvaluated('env-r1', 1, 1, 'a');
  t.equal(b.levels.entries.get('a')!.score, learnabilityOf(1), 'the replay of a scored a: now solved');
  t.equal(b.levels.entries.get('a')!.visits, 2);
  t.notOk(b.levels.entries.has('env-r1'), 'a replay is not a level of its own');
  const picks = b.picks(2, seeds(3));
  t.same(picks.filter((p) => p !== null).map((p) => p!.envId).sort(), ['a', 'b'], 'three jobs, two environments: each once, the third job designs');
  t.equal(picks.filter((p) => p === null).length, 1);
});

t.test('an evaluation before its acceptance counts; each family keeps perFamily', async (t) => {
  const b = new ReplayBuffer(options);
  b.onEvaluated('early', 0.5, 0);
  t.equal(b.levels.entries.size, 0, 'no code yet: held back');
  b.onAccepted('early', 'tools', 'code early');
  t.equal(b.levels.entries.get('early')!.score, 0.25, 'added with the evaluation that came first');
  for (const [id, p] of [['x', 0.5], ['y', 0.9], ['z', 1], ['w', 0.4]] as const) (b.onAccepted(id, 'tools', `code ${id}`), b.onEvaluated(id, p, 1));
  t.same([...b.levels.entries.keys()].sort(), ['early', 'w', 'x'], 'the lowest-scored go first (z solved, then y)');
});

t.test('rate 0 replays nothing; rate 1/2 about half', async (t) => {
  const off = new ReplayBuffer({ ...options, rate: 0 });
  const half = new ReplayBuffer({ ...options, rate: 0.5, perFamily: 1000 });
  for (let i = 0; i < 300; i++) for (const b of [off, half]) (b.onAccepted(`e${i}`, 'games', 'code'), b.onEvaluated(`e${i}`, 0.5, 0));
  t.same(off.picks(1, seeds(50)).filter((p) => p !== null), []);
  const n = half.picks(1, seeds(200)).filter((p) => p !== null).length;
  t.ok(n > 70 && n < 130, `rate 0.5: ${n} of 200 jobs replay`);
});
