// `spade env check|play` through envCommand with real streams: exit codes 0/1/2, JSON output, and a played episode.
import t from 'tap';
import { PassThrough } from 'node:stream';
import { envCommand } from '../../sandbox/cli-env.js';
import { repoPath } from '../../runtime/paths.js';

function io(input = '') {
  const stdin = new PassThrough();
  stdin.end(input);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  // A generous call budget: these tests check the command, not the time limit, on a machine shared with others.
  return { streams: { stdin, stdout, stderr, sandbox: { callTimeoutMs: 500 } }, out: () => out, err: () => err };
}

const valid = repoPath('test', 'fixtures', 'sum-to-target.js');
const invalid = repoPath('test', 'fixtures', 'hostile', 'reward-nan.js');

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

t.test('usage errors exit 2', async (t) => {
  for (const argv of [[], ['check'], ['check', valid, '--seeds', '0'], ['check', '/nonexistent.js'], ['frobnicate'], ['play', valid, '--bogus']]) {
    const x = io();
    t.equal(await envCommand(argv, x.streams), 2, argv.join(' '));
  }
  const h = io();
  t.equal(await envCommand(['--help'], h.streams), 0);
  t.match(h.out(), /spade env check FILE/);
});

t.test('play: one action per line until the episode ends', async (t) => {
  const x = io('9\n9\n9\n9\n9\n9\n9\n9\n9\n');
  t.equal(await envCommand(['play', valid, '--seed', '3', '--hint'], x.streams), 0);
  t.match(x.out(), /hint: Add 9/);
  t.match(x.out(), /Target \d+/);
  t.match(x.out(), /episode (terminated|truncated) after \d+ turns/);
});
