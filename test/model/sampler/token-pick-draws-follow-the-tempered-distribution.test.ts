// pickToken: draws follow the tempered distribution (T = 1 and T = 2), and the same seed gives the same draws.
import t from 'tap';
import { pickToken, seededUniform } from '../../../model/sampler/token-pick.js';

const logp = Float64Array.from([0.5, 0.3, 0.15, 0.05], Math.log);

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
