// A module that fails validation is listed with its stage and left out of the means; a module that throws mid-episode
// (on every eval seed) counts 0 for each episode and is flagged; neither stops the run.
import t from 'tap';
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
