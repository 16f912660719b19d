// The learning rate ramps linearly, decays along a cosine to the floor, then stays there.
import t from 'tap';
import { lrSchedule } from '../../../model/lr-schedule.js';

t.test('values', async (t) => {
  const lr = lrSchedule({ peakLr: 1, warmupSteps: 4, decaySteps: 14, minLr: 0.1 });
  t.same([0, 1, 2, 3].map(lr), [0.25, 0.5, 0.75, 1], 'linear warmup ends at the peak');
  t.equal(lr(4), 1, 'cosine starts at the peak');
  t.ok(Math.abs(lr(9) - 0.55) < 1e-12, 'halfway: midpoint of peak and floor');
  t.ok(Math.abs(lr(13) - (0.1 + 0.45 * (1 + Math.cos((Math.PI * 9) / 10)))) < 1e-12);
  t.same([14, 15, 1000].map(lr), [0.1, 0.1, 0.1], 'the floor after decay');
  for (let s = 4; s < 14; s++) t.ok(lr(s + 1) <= lr(s), `non-increasing at ${s}`);
  t.equal(lrSchedule({ peakLr: 2, warmupSteps: 0, decaySteps: 0, minLr: 2 })(0), 2, 'no warmup, no decay: constant');
});
