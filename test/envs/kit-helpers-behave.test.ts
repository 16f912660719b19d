// The kit's helpers, run from envs/kit.js in a Node vm with the sandbox PRNG: parsing, formatting and seeded randomness.
import t from 'tap';
import { kitContext } from './kit-vm.js';

const k = kitContext(7);
const run = (e: string): unknown => JSON.parse(JSON.stringify(k.run(e)));

t.test('parseCall reads tool calls inside prose and tolerates non-JSON arguments', async (t) => {
  t.same(run(`kit.parseCall('Sure! \`ls({"path": "/srv"})\` next')`), { name: 'ls', args: { path: '/srv' } });
  t.same(run(`kit.parseCall('checkout()')`), { name: 'checkout', args: {} });
  t.same(run(`kit.parseCall('cat("/a/b (old).txt")')`), { name: 'cat', args: '/a/b (old).txt' });
  t.same(run(`kit.parseCall("go(north)")`), { name: 'go', args: 'north' });
  t.same(run(`kit.parseCall("say('hi there')")`), { name: 'say', args: 'hi there' });
  t.same(run(`kit.parseCall('api.get({"id": 3})')`), { name: 'api.get', args: { id: 3 } });
  t.equal(run(`kit.parseCall('I think (maybe) not')`), null);
  t.equal(run(`kit.parseCall('ls({"path": "/"')`), null);
  t.same(run(`kit.parseCalls('a(1) then b({"x": [1, 2]})').map((c) => c.name)`), ['a', 'b']);
});

t.test('parseCall stays fast on long junk (no backtracking)', async (t) => {
  const t0 = performance.now();
  t.equal(run(`kit.parseCall('x'.repeat(100000) + '(' + 'y'.repeat(100000))`), null);
  t.equal(run(`kit.parseCalls('a('.repeat(20000)).length`), 0);
  t.ok(performance.now() - t0 < 1000, 'well under a second');
});

t.test('numbers, words and normalisation', async (t) => {
  t.equal(run(`kit.parseNumber('I pick -12.5, then 3')`), -12.5);
  t.equal(run(`kit.parseNumber('none')`), null);
  t.same(run(`kit.parseNumbers('x=3 y=-2 z=10')`), [3, -2, 10]);
  t.equal(run(`kit.norm('  Hello \\n  World ')`), 'hello world');
  t.same(run(`kit.words("Ada's knight-errant, KNAVE!")`), ["ada's", 'knight-errant', 'knave']);
});

t.test('formatting helpers', async (t) => {
  t.equal(run(`kit.lines('a', null, ['b', ['c']], '', false, 0)`), 'a\nb\nc\n0');
  t.equal(run(`kit.grid([[1, 2], '34'], '')`), '12\n34');
  t.equal(run(`kit.table(['id', 'name'], [[1, 'Ann'], [22, 'Bo']])`), 'id | name\n---|-----\n1  | Ann\n22 | Bo');
  t.equal(run(`kit.list(['a', 'b'])`), '1. a\n2. b');
  t.equal(run(`kit.list(['a'], false)`), '- a');
  t.same(run(`[kit.clamp01(-1), kit.clamp01(0.5), kit.clamp01(2)]`), [0, 0.5, 1]);
  t.same(run(`[kit.range(3), kit.range(2, 5)]`), [[0, 1, 2], [2, 3, 4]]);
});

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

t.test('kit is frozen', async (t) => {
  t.equal(run(`Object.isFrozen(kit)`), true);
  t.equal(run(`(() => { try { kit.pick = null; } catch (e) {} return typeof kit.pick; })()`), 'function');
});
