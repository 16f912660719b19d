// The kit's formatting helpers: lines, grid, table, list, clamp01 and range.
import t from 'tap';
import { kitContext } from './kit-vm.js';

const k = kitContext(7);

const run = (e: string): unknown => JSON.parse(JSON.stringify(k.run(e)));

t.test('formatting helpers', async (t) => {
  t.equal(run(`kit.lines('a', null, ['b', ['c']], '', false, 0)`), 'a\nb\nc\n0');
  t.equal(run(`kit.grid([[1, 2], '34'], '')`), '12\n34');
  t.equal(run(`kit.table(['id', 'name'], [[1, 'Ann'], [22, 'Bo']])`), 'id | name\n---|-----\n1  | Ann\n22 | Bo');
  t.equal(run(`kit.list(['a', 'b'])`), '1. a\n2. b');
  t.equal(run(`kit.list(['a'], false)`), '- a');
  t.same(run(`[kit.clamp01(-1), kit.clamp01(0.5), kit.clamp01(2)]`), [0, 0.5, 1]);
  t.same(run(`[kit.range(3), kit.range(2, 5)]`), [[0, 1, 2], [2, 3, 4]]);
});
