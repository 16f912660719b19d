// replay.rate is the share of design jobs that replay once the buffer holds designs: 0 replays nothing, 1/2 about half.
import t from 'tap';
import { ReplayBuffer } from '../../../actors/coordinator/replay.js';

const options = { rate: 1, perFamily: 3, staleness: 0.2, emaRate: 0.5 };
const seeds = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i * 7919);

t.test('rate 0 replays nothing; rate 1/2 about half', async (t) => {
  const off = new ReplayBuffer({ ...options, rate: 0 });
  const half = new ReplayBuffer({ ...options, rate: 0.5, perFamily: 1000 });
  for (let i = 0; i < 300; i++) for (const b of [off, half]) (b.onAccepted(`e${i}`, 'games', 'code'), b.onEvaluated(`e${i}`, 0.5, 0));
  t.same(off.picks(1, seeds(50)).filter((p) => p !== null), []);
  const n = half.picks(1, seeds(200)).filter((p) => p !== null).length;
  t.ok(n > 70 && n < 130, `rate 0.5: ${n} of 200 jobs replay`);
});
