// The one-step bandit (bandit.ts) when every sample comes from the weights of two updates ago: clipping and
// truncated importance sampling still let the rewarded share rise to most samples.
import t from 'tap';
import { bandit, banditRows, rewardedShare } from './bandit.js';

t.test('still learns when every sample is two versions stale (clipping and TIS at work)', async (t) => {
  const { weights, sampler, trainer, round, snapshot } = await bandit(t, 'behaviour', { samplerOnACopy: true });
  const history = [snapshot(), snapshot()]; // the sampler runs the weights of two updates ago
  let offPolicy = 0;
  for (let step = 0; step < 40; step++) {
    const stats = await trainer.update(banditRows(step, await round(16)));
    offPolicy = Math.max(offPolicy, Math.abs(stats.meanRatio - 1));
    history.push(snapshot());
    sampler.setWeights(history.shift()!, step + 1);
  }
  sampler.setWeights(weights, 99);
  const after = rewardedShare(await round(64));
  t.ok(offPolicy > 1e-3, `the data really was off-policy (max |mean ratio − 1| ${offPolicy.toFixed(4)})`);
  t.ok(after > 0.8, `most rewarded after 40 stale updates (${after})`);
});
