// The kit's random helpers stay in range and follow Math.random, which the sandbox seeds: same seed, same draws.
import t from 'tap';
import { kitContext } from './kit-vm.js';

const k = kitContext(7);

const run = (e: string): unknown => JSON.parse(JSON.stringify(k.run(e)));

t.test('random helpers stay in range and follow Math.random', async (t) => {
  const ints = run(`Array.from({ length: 2000 }, () => kit.randInt(-2, 3))`) as number[];
  t.ok(ints.every((x) => Number.isInteger(x) && x >= -2 && x <= 3));
  t.equal(new Set(ints).size, 6, 'both ends are reachable');
  t.same(run(`(() => { const a = [1, 2, 3, 4, 5]; const s = kit.shuffle(a); return [a, s.slice().sort()]; })()`), [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]);
  const s = run(`kit.sample(kit.range(10), 4)`) as number[];
  t.equal(new Set(s).size, 4);
  t.equal((run(`kit.sample([1, 2], 5)`) as number[]).length, 2);
  t.same(run(`[kit.chance(0), kit.chance(1)]`), [false, true]);
  const a = kitContext(42), b = kitContext(42), c = kitContext(43);
  const draw = 'kit.shuffle(kit.range(20)).concat(kit.randInt(0, 1e9), kit.pick(["x", "y", "z"]))';
  t.same(a.run(draw), b.run(draw), 'same seed, same draws');
  t.notSame(a.run(draw), c.run(draw), 'another seed, other draws');
});
