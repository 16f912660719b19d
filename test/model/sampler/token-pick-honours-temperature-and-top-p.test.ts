// pickToken: greedy at temperature 0, top-p keeps only the nucleus, draws follow the tempered distribution,
// and the reported sample log-prob is that of the distribution drawn from.
import t from 'tap';
import { pickToken, seededUniform } from '../../../model/sampler/token-pick.js';

const logp = Float64Array.from([0.5, 0.3, 0.15, 0.05], Math.log);

t.test('greedy and nucleus', async (t) => {
  const u = seededUniform(1);
  t.same(pickToken(logp, { temperature: 0, topP: 1 }, u), { token: 0, sampleLogprob: 0 });
  for (let i = 0; i < 50; i++) {
    const p = pickToken(logp, { temperature: 1, topP: 0.75 }, u);
    t.ok(p.token <= 1, 'only the two tokens covering 0.75 are drawn');
    t.ok(Math.abs(p.sampleLogprob - Math.log([0.5, 0.3][p.token]! / 0.8)) < 1e-12);
  }
});

t.test('frequencies follow the tempered distribution; same seed, same draws', async (t) => {
  const draw = (seed: number, temperature: number): number[] => {
    const u = seededUniform(seed);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 20000; i++) counts[pickToken(logp, { temperature, topP: 1 }, u).token]!++;
    return counts.map((c) => c / 20000);
  };
  const f1 = draw(9, 1);
  [0.5, 0.3, 0.15, 0.05].forEach((p, i) => t.ok(Math.abs(f1[i]! - p) < 0.015, `token ${i}: ${f1[i]} ≈ ${p}`));
  const hot = draw(9, 2);
  const z = [0.5, 0.3, 0.15, 0.05].reduce((s, p) => s + Math.sqrt(p), 0);
  [0.5, 0.3, 0.15, 0.05].forEach((p, i) => t.ok(Math.abs(hot[i]! - Math.sqrt(p) / z) < 0.015, `T=2 token ${i}`));
  t.same(draw(9, 1), f1, 'deterministic given the seed');
});
