// The kit inside the real sandbox (QuickJS, seeded Math.random) gives exactly what envs/kit.js gives in Node with the
// documented PRNG: the kit is loaded, seeded per reset, and deterministic.
import t from 'tap';
import { SandboxPool } from '../../sandbox/index.js';
import { kitContext } from './kit-vm.js';

const PROBE = `({
  ints: kit.range(8).map(() => kit.randInt(1, 6)),
  shuffled: kit.shuffle(kit.range(10)),
  sample: kit.sample(['a', 'b', 'c', 'd', 'e'], 3),
  pick: kit.pick(['x', 'y', 'z']),
  chance: kit.chance(0.5),
  call: kit.parseCall('then move({"from": "A", "to": [1, 2]}) please'),
  numbers: kit.parseNumbers('x=-3 y=4.5'),
  table: kit.table(['a', 'bb'], [[1, 2]]),
  frozen: Object.isFrozen(kit),
})`;

const code = `
export const spec = { name: 'kit-probe', description: 'Reports kit results.', hint: 'None.', maxTurns: 1 };
export default class Env {
  reset(seed) { return { observation: JSON.stringify(${PROBE}) }; }
  step(action) { return { observation: 'done', reward: 0, terminated: true }; }
}`;

// Generous call budget: a cold worker on a loaded machine can miss 50 ms on noise; limits are tested elsewhere.
const pool = new SandboxPool({ workers: 1, callTimeoutMs: 500, wallClockKillMs: 5000 });
t.teardown(() => pool.close());

t.test('kit results in QuickJS equal the Node reference for several seeds', async (t) => {
  for (const seed of [1, 2, 99, 123456789]) {
    const { observation } = await pool.reset({ code, seed });
    const expected = JSON.parse(JSON.stringify(kitContext(seed).run(PROBE)));
    t.same(JSON.parse(observation), expected, `seed ${seed}`);
  }
  const a = await pool.reset({ code, seed: 5 });
  const b = await pool.reset({ code, seed: 6 });
  t.not(a.observation, b.observation, 'different seeds draw differently');
});
