// A module that fails validation is listed with its stage and left out of the means; a module that throws mid-episode
// (on every eval seed) counts 0 for each episode and is flagged; neither stops the run, and a suite of hostile
// modules (test/fixtures/hostile) is reported module by module.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { BASE, evalJson, FIXTURE_SUITE } from './run-eval-command.js';

t.setTimeout(480_000); // several runs of a checkpoint; on shared cores under load each can take a minute

t.test('invalid: reported with its stage; faulting: zeros, counted', async (t) => {
  const r = await evalJson([BASE, '--suite', FIXTURE_SUITE, '--seeds', '2']);
  const c = r.results[0]!;
  t.match(c.invalid['tools/broken-syntax.js'], /^parse: /);
  t.notOk('tools' in c.families, 'the invalid module is in no family mean');
  const f = c.envs['faults-unseen']!;
  t.same({ episodes: f.episodes, faults: f.faults, returnNoHint: f.returnNoHint, returnHint: f.returnHint }, { episodes: 4, faults: 4, returnNoHint: 0, returnHint: 0 });
  t.equal(c.families.games!.meanReturnNoHint, 0, 'the faulting module counts as return 0');
  const echo = c.envs['reverse-word']!;
  t.ok(Math.abs(c.meanReturnNoHint! - (echo.returnNoHint + 0) / 2) < 1e-12, 'mean over the two valid modules');
});

t.test('hostile modules: each one is invalid or played, the run completes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'eval-hostile-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const f of ['host-eval-indirect.js', 'loop-step.js', 'memory-repeat.js']) await cp(repoPath('test', 'fixtures', 'hostile', f), join(dir, 'hostile', f));
  await cp(join(FIXTURE_SUITE, 'reasoning', 'reverse-word.js'), join(dir, 'reasoning', 'reverse-word.js'));
  const r = await evalJson([BASE, '--suite', dir, '--seeds', '1', '--hint', 'off']);
  const c = r.results[0]!;
  const played = Object.values(c.envs).filter((e) => e.family === 'hostile').length;
  t.equal(Object.keys(c.invalid).length + played, 3, `${JSON.stringify(c.invalid)}`);
  for (const why of Object.values(c.invalid)) t.match(why, /^[a-z-]+: /, 'stage: reason');
  t.ok('reverse-word' in c.envs);
});
