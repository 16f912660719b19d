// An arm's frontier figures pooled over its runs weigh every run the same and resample the runs, then the units
// within each drawn run: two runs, one whose feasible designs all have regret 1 and one all 0, pool to 0.5 with the
// interval [0, 1] (a replicate that draws one run twice), where each run alone has a zero-width interval. The
// reward slope and the band difference pool the same way; the knob counts add up.
import t from 'tap';
import { frontierFigures, type FrontierUnits } from '../../experiment/index.js';

const units = (regret: number, rise: number, band: [number, number]): FrontierUnits => ({
  regrets: [regret, regret, regret],
  evaluated: 4,
  rewards: [0, 1, 2].map((i) => ({ iteration: i, reward: rise * i })),
  // first half (iterations 0–1): `band[0]` of two in the band; second half (iteration 2): `band[1]` of two.
  returns: [{ iteration: 0, returnNoHint: band[0] > 0 ? 0.5 : 0 }, { iteration: 1, returnNoHint: band[0] > 1 ? 0.5 : 1 }, { iteration: 2, returnNoHint: band[1] > 0 ? 0.5 : 0 }, { iteration: 2, returnNoHint: band[1] > 1 ? 0.5 : 1 }],
  knobs: { families: { 'window-search': { children: 2, knobs: { TOP: { library: 64, values: { 64: 1, 100: 1 }, missing: 0, changed: 1 } } } }, unattributed: 1 },
  replays: 1,
});

t.test('pooled frontier figures resample the runs', async (t) => {
  const a = units(1, 0.5, [0, 2]), b = units(0, 0, [1, 1]);
  const one = frontierFigures([a], { resamples: 400 });
  t.same([one.regret.mean, one.regret.ci95, one.regret.resampled], [1, [1, 1], ['environments']], 'one run: constant regrets, no width');
  t.same([one.band.firstHalf.share, one.band.secondHalf.share, one.band.difference], [0, 1, 1]);
  const p = frontierFigures([a, b], { resamples: 400 });
  t.same([p.regret.mean, p.regret.ci95, p.regret.resampled], [0.5, [0, 1], ['runSeeds', 'environments']], 'two runs that disagree: the run level spans them');
  t.same([p.regret.feasible, p.regret.evaluated], [6, 8]);
  t.equal(p.reward.slope, 0.5, 'mean of the runs\' slopes over the run (1 and 0)');
  t.same(p.reward.resampled, ['runSeeds', 'iterations']);
  t.ok(p.reward.ci95![0] === 0 && p.reward.ci95![1] === 1, 'the slope interval spans the two runs');
  t.same([p.band.firstHalf, p.band.secondHalf], [{ environments: 4, share: 0.25 }, { environments: 4, share: 0.75 }], 'half shares: mean of the runs\'');
  t.equal(p.band.difference, 0.5, 'mean of the runs\' differences (1 and 0)');
  t.same(p.band.resampled, ['runSeeds', 'environments']);
  t.same(p.knobs.families['window-search']!.knobs.TOP!.values, { 64: 2, 100: 2 }, 'knob counts add up');
  t.same([p.knobs.unattributed, p.replays], [2, 2]);
  t.same(frontierFigures([units(0, 0, [0, 0])].map((u) => ({ ...u, regrets: [], rewards: [], returns: [] }))).regret, { mean: null, ci95: null, resampled: ['environments'], feasible: 0, evaluated: 4 }, 'nothing feasible: no figure');
});
