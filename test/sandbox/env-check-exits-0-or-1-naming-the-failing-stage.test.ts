// `spade env check` through envCommand with real streams exits 0 when every file is valid and 1 naming the failing
// stage, also as JSON with --json.
import t from 'tap';
import { envCommand } from '../../sandbox/cli-env.js';
import { io, valid, invalid } from './cli-io.js';

t.test('check: 0 when all valid, 1 with the failing stage, --json', async (t) => {
  const a = io();
  t.equal(await envCommand(['check', valid], a.streams), 0, a.out());
  t.match(a.out(), /1 valid, 0 invalid/);
  const b = io();
  t.equal(await envCommand(['check', valid, invalid, '--seeds=2'], b.streams), 1);
  t.match(b.out(), /FAIL .*reward-nan\.js.*return-range/);
  const c = io();
  t.equal(await envCommand(['check', invalid, '--json', '--seeds', '2'], c.streams), 1);
  const parsed = JSON.parse(c.out());
  t.equal(parsed.ok, false);
  t.equal(parsed.results[0].failed, 'return-range');
});
