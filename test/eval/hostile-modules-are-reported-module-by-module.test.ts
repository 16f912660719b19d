// A suite of hostile modules (test/fixtures/hostile) next to a good one: each hostile module is reported invalid with
// its stage or played, and the run completes.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { repoPath } from '../../runtime/paths.js';
import { BASE, evalJson, FIXTURE_SUITE } from './run-eval-command.js';

t.setTimeout(480_000); // a run of a checkpoint; on shared cores under load it can take a minute

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
