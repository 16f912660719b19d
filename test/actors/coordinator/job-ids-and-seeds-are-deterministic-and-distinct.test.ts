// Pure logic: job ids and seeds are deterministic and distinct, so a re-issued iteration is deduplicated.
import t from 'tap';
import { jobIds, jobSeed } from '../../../actors/coordinator/schedule.js';

t.test('ids and seeds are deterministic and distinct', async (t) => {
  t.same(jobIds('r', 3, 2), ['r-it3-d0', 'r-it3-d1']);
  const seeds = new Set<number>();
  for (let i = 0; i < 50; i++) for (let j = 0; j < 8; j++) seeds.add(jobSeed(7, i, j));
  t.equal(seeds.size, 400);
  t.equal(jobSeed(7, 1, 2), jobSeed(7, 1, 2));
});
