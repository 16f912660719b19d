// A designing run's frontier figures from a run directory written as the coordinator leaves one: regret averages the
// feasible evaluated designs that have a regret (a replay, an infeasible design and one without a no-hint return are
// left out); the designer's reward slope is fitted against run progress (the last of a resumed run's repeated
// iteration lines counts; an iteration without a reward is skipped); the band share splits the evaluated designs at
// the midpoint of their iterations, and the difference is second half − first.
import t from 'tap';
import { frontierFigures, readFrontierUnits } from '../../experiment/index.js';
import { libraryModule, writeRunArchive } from '../helpers/run-archive.js';

const ev = (envId: string, iteration: number, feasible: boolean, regret: number | undefined, returnNoHint: number | undefined) => ({ envId, iteration, feasible, regret, returnHint: 1, returnNoHint, designerReward: 0 });

t.test('frontier figures come from a run directory', async (t) => {
  const dir = writeRunArchive(t, {
    accepted: [{ envId: 'env-1', iteration: 1, name: 'window-search', family: 'games', parents: ['library:window-search'] }],
    code: { 'env-1': libraryModule('games/window-search', { TOP: 100 }) },
    evaluated: [
      ev('e1', 1, true, 0.4, 0.1), // first half, out of band
      ev('e2', 1, false, 0, 0), // infeasible: no regret figure; first half, out of band
      ev('e3', 2, true, 0.2, 0.5), // first half, in band
      ev('e4', 3, true, 0.6, 0.3), // second half, in band
      ev('e5', 4, true, undefined, undefined), // no no-hint return: neither regret nor band
      ev('e6', 4, false, 0.1, 0.9), // second half, out of band
    ],
    replayed: [{ envId: 'r1', iteration: 3, feasible: true, regret: 5, returnHint: 1, returnNoHint: 0.5, replayOf: 'e1' }],
    metrics: [
      { event: 'start' },
      { event: 'iteration', iteration: { index: 2, meanDesignerReward: 99 } }, // replaced by the resumed run's line
      ...[1, 2, 3, 4].map((index) => ({ event: 'iteration', iteration: { index, meanDesignerReward: -0.2 + 0.3 * index } })),
      { event: 'iteration', iteration: { index: 5, meanDesignerReward: null } },
      { event: 'final', tokens: { total: 10 } },
    ],
  });
  const u = readFrontierUnits(dir);
  t.same(u.regrets, [0.4, 0.2, 0.6], 'feasible designs with a regret, replays left out');
  t.same([u.evaluated, u.replays], [6, 1]);
  t.equal(u.rewards.length, 4, 'iterations with a reward, once each');
  const f = frontierFigures([u], { resamples: 500 });
  t.ok(Math.abs(f.regret.mean! - 0.4) < 1e-12, 'regret mean over feasible designs');
  t.ok(f.regret.ci95![0] >= 0.2 && f.regret.ci95![1] <= 0.6 && f.regret.ci95![0] < f.regret.ci95![1], 'its interval lies within them');
  t.same([f.regret.feasible, f.regret.evaluated, f.regret.resampled], [3, 6, ['environments']]);
  t.ok(Math.abs(f.reward.slope! - 0.9) < 1e-12, 'reward rises 0.3 an iteration over 3 iterations: 0.9 over the run');
  t.ok(Math.abs(f.reward.ci95![0] - 0.9) < 1e-9 && Math.abs(f.reward.ci95![1] - 0.9) < 1e-9, 'points on a line: every resample has the same slope');
  t.same([f.reward.iterations, f.reward.resampled], [4, ['iterations']]);
  t.same(f.band.band, [0.2, 0.8]);
  t.same(f.band.firstHalf, { environments: 3, share: 1 / 3 }, 'iterations 1–2: one of three in the band');
  t.same(f.band.secondHalf, { environments: 2, share: 0.5 }, 'iterations 3–4: one of two');
  t.ok(Math.abs(f.band.difference! - 1 / 6) < 1e-12, 'second − first');
  t.ok(f.band.ci95![0] <= 1 / 6 && f.band.ci95![1] >= 1 / 6 && f.band.ci95![0] >= -1 && f.band.ci95![1] <= 1, 'its interval holds it');
  t.equal(f.replays, 1);
});
