// The kit's parseCall and parseCalls stay fast on long junk input (no regex backtracking).
import t from 'tap';
import { kitContext } from './kit-vm.js';

const k = kitContext(7);

const run = (e: string): unknown => JSON.parse(JSON.stringify(k.run(e)));

t.test('parseCall stays fast on long junk (no backtracking)', async (t) => {
  const t0 = performance.now();
  t.equal(run(`kit.parseCall('x'.repeat(100000) + '(' + 'y'.repeat(100000))`), null);
  t.equal(run(`kit.parseCalls('a('.repeat(20000)).length`), 0);
  t.ok(performance.now() - t0 < 1000, 'well under a second');
});
