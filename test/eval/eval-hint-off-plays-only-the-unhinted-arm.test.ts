// `spade eval --hint off` plays only the unhinted arm: its tables name the checkpoint and its families, leave the
// hint column empty, and the turns per second are printed.
import t from 'tap';
import { BASE, FIXTURE_SUITE, runEvalCommand } from './run-eval-command.js';

t.test('--hint off plays only the unhinted arm; the tables name the checkpoint and its families', async (t) => {
  const r = await runEvalCommand([BASE, '--suite', FIXTURE_SUITE, '--seeds', '1', '--hint', 'off']);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /checkpoint .*base/);
  t.match(r.stdout, /reasoning\s+1\s/);
  t.match(r.stdout, /reverse-word\s+reasoning\s+\d\.\d{3}\s+-\s+1\s+0/, 'hint column empty, 1 episode');
  t.match(r.stderr, /turns\/s/, 'turns/s printed');
});
