// `spade env` exits 2 on every usage error and 0 with the usage text on --help.
import t from 'tap';
import { envCommand } from '../../sandbox/cli-env.js';
import { io, valid } from './cli-io.js';

t.test('usage errors exit 2', async (t) => {
  for (const argv of [[], ['check'], ['check', valid, '--seeds', '0'], ['check', '/nonexistent.js'], ['frobnicate'], ['play', valid, '--bogus']]) {
    const x = io();
    t.equal(await envCommand(argv, x.streams), 2, argv.join(' '));
  }
  const h = io();
  t.equal(await envCommand(['--help'], h.streams), 0);
  t.match(h.out(), /spade env check FILE/);
});
