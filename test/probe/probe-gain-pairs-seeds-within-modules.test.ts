// The probe's gain pairs each seed's before and after return within a module and averages modules with equal weight;
// its interval resamples seeds within modules (the modules are the fixed question), so a module that gains on every
// seed gives an interval above zero and one that does not move gives [0, 0].
import t from 'tap';
import { probeGain } from '../../probe/index.js';

t.test('paired, stratified by module', async (t) => {
  const ones = (n: number): number[] => new Array<number>(n).fill(1), zeros = (n: number): number[] => new Array<number>(n).fill(0);
  const before = { up: [...zeros(8), ...ones(8)], flat: ones(16) };
  const after = { up: [...ones(6), ...zeros(2), ...ones(8)], flat: ones(16) };
  const g = probeGain(before, after, 2000, 1);
  t.equal(g.before, (0.5 + 1) / 2);
  t.equal(g.after, (14 / 16 + 1) / 2);
  t.equal(g.gainNoHint.mean, 6 / 16 / 2, 'the mean of module gains');
  t.same(g.perModule.flat!.gainNoHint, { mean: 0, ci95: [0, 0] }, 'no change on any seed: a zero-width interval');
  t.ok(g.perModule.up!.gainNoHint.ci95[0] > 0, `a module up on 6 of 16 seeds and down on none: ${g.perModule.up!.gainNoHint.ci95}`);
  t.ok(g.gainNoHint.ci95[0] > 0 && g.gainNoHint.ci95[1] < 6 / 16, `the whole: ${g.gainNoHint.ci95}`);
  const swapped = probeGain({ up: [1, 0], flat: [0, 1] }, { up: [0, 1], flat: [1, 0] });
  t.equal(swapped.gainNoHint.mean, 0, 'unpaired means equal, paired differences cancel');
  t.ok(swapped.gainNoHint.ci95[0] < 0 && swapped.gainNoHint.ci95[1] > 0);
});
