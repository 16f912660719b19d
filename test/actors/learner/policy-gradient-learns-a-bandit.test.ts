// The whole learning path on a one-step bandit (bandit.ts): sample from the policy, GRPO-normalise the rewards,
// update with the learner's trainer. The rewarded share rises from about a half to most samples under both
// objectives, so signs, token-mean and the importance ratios fit together.
import t from 'tap';
import { bandit, banditRows, rewardedShare } from './bandit.js';

for (const kind of ['behaviour', 'decoupled'] as const)
t.test(`rewarded share rises under policy-gradient updates (${kind})`, async (t) => {
  const { trainer, round } = await bandit(t, kind);
  const before = rewardedShare(await round(64));
  for (let step = 0; step < 40; step++) {
    const stats = await trainer.update(banditRows(step, await round(16)));
    t.ok(Math.abs(stats.meanRatio - 1) < 1e-3, `step ${step}: on-policy (ratio ${stats.meanRatio.toFixed(5)})`);
  }
  const after = rewardedShare(await round(64));
  t.ok(before > 0.3 && before < 0.7, `about half rewarded before (${before})`);
  t.ok(after > 0.85, `most rewarded after 40 updates (${after})`);
});
