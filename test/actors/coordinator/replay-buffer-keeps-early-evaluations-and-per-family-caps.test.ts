// An evaluation that arrives before its acceptance (the two streams are read apart) still counts once the code comes;
// each family keeps at most perFamily designs, the lowest-scored first out.
import t from 'tap';
import { ReplayBuffer } from '../../../actors/coordinator/replay.js';

const options = { rate: 1, perFamily: 3, staleness: 0.2, emaRate: 0.5 };

t.test('an evaluation before its acceptance counts; each family keeps perFamily', async (t) => {
  const b = new ReplayBuffer(options);
  b.onEvaluated('early', 0.5, 0);
  t.equal(b.levels.entries.size, 0, 'no code yet: held back');
  b.onAccepted('early', 'tools', 'code early');
  t.equal(b.levels.entries.get('early')!.score, 0.25, 'added with the evaluation that came first');
  for (const [id, p] of [['x', 0.5], ['y', 0.9], ['z', 1], ['w', 0.4]] as const) (b.onAccepted(id, 'tools', `code ${id}`), b.onEvaluated(id, p, 1));
  t.same([...b.levels.entries.keys()].sort(), ['early', 'w', 'x'], 'the lowest-scored go first (z solved, then y)');
});
