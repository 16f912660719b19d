// `spade env play` reads one action per line from stdin until the episode ends, showing the hint with --hint.
import t from 'tap';
import { envCommand } from '../../sandbox/cli-env.js';
import { io, valid } from './cli-io.js';

t.test('play: one action per line until the episode ends', async (t) => {
  const x = io('9\n9\n9\n9\n9\n9\n9\n9\n9\n');
  t.equal(await envCommand(['play', valid, '--seed', '3', '--hint'], x.streams), 0);
  t.match(x.out(), /hint: Add 9/);
  t.match(x.out(), /Target \d+/);
  t.match(x.out(), /episode (terminated|truncated) after \d+ turns/);
});
