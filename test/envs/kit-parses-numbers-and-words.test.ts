// The kit's number and word helpers parse numbers from prose, split words and normalise whitespace and case.
import t from 'tap';
import { kitContext } from './kit-vm.js';

const k = kitContext(7);

const run = (e: string): unknown => JSON.parse(JSON.stringify(k.run(e)));

t.test('numbers, words and normalisation', async (t) => {
  t.equal(run(`kit.parseNumber('I pick -12.5, then 3')`), -12.5);
  t.equal(run(`kit.parseNumber('none')`), null);
  t.same(run(`kit.parseNumbers('x=3 y=-2 z=10')`), [3, -2, 10]);
  t.equal(run(`kit.norm('  Hello \\n  World ')`), 'hello world');
  t.same(run(`kit.words("Ada's knight-errant, KNAVE!")`), ["ada's", 'knight-errant', 'knave']);
});
