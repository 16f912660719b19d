// A replay's evaluation moves the score of the design it replays (no level of its own), and the replays of one
// iteration are distinct designs: a job beyond them designs.
import t from 'tap';
import { ReplayBuffer } from '../../../actors/coordinator/replay.js';
import { learnabilityOf } from '../../../actors/coordinator/level-buffer.js';

const options = { rate: 1, perFamily: 3, staleness: 0.2, emaRate: 0.5 };
const seeds = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i * 7919);

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
