// The alias sampler draws indices in proportion to arbitrary weights, never a zero one, and refuses negative
// or all-zero weights with typed errors.
import t from 'tap';
import { CorpusSampler } from '../../corpus/index.js';
import { makeRandom } from '../../sandbox/prng.js';
import { CHI2_999, chiSquare } from './helpers.js';

t.test('alias sampler matches arbitrary weights', async (t) => {
  const w = [0.5, 0, 3, 1e-3, 7, 2.25, 0, 1, 4, 0.75];
  const sampler = new CorpusSampler(w);
  const random = makeRandom(11);
  const obs = w.map(() => 0);
  for (let i = 0; i < 200_000; i++) obs[sampler.sample(random)]!++;
  t.equal(obs[1], 0);
  t.equal(obs[6], 0);
  const total = w.reduce((a, b) => a + b, 0);
  const keep = w.map((x, i) => [x, i] as const).filter(([x]) => x > 0.01);
  const chi = chiSquare(keep.map(([, i]) => obs[i]!), keep.map(([x]) => x / total));
  t.ok(chi < CHI2_999[keep.length - 1]!, `chi-square ${chi.toFixed(2)} over ${keep.length} categories`);
  t.throws(() => new CorpusSampler([1, -1]), { name: 'OptionsError', code: 'OPTIONS_INVALID', path: 'weights[1]', message: /^weights\[1\]: expected a finite number >= 0, got -1$/ });
  t.throws(() => new CorpusSampler([0, 0]), { code: 'CORPUS_EMPTY' });
});
