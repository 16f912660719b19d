// `spade eval` takes Hugging Face model directories as checkpoints: the committed qwen2 fixture (32 positions, so
// its chat prompts are cut to fit) and a copy with a longer context play the suite's instances and are reported,
// paired, like SPADE checkpoints.
import t from 'tap';
import { hfFixture, hfFixtureCopy } from '../helpers/hf-fixture.js';
import { FIXTURE_SUITE, evalJson, runEvalCommand } from './run-eval-command.js';

t.setTimeout(300_000);

t.test('eval plays and reports Hugging Face directories', async (t) => {
  const committed = hfFixture('qwen2-f32-tied');
  const longer = await hfFixtureCopy(t, 'qwen2-f32-tied', { contextLength: 256 });
  const r = await evalJson([committed, longer, '--suite', FIXTURE_SUITE, '--seeds', '2']);
  t.same(r.results.map((x) => x.checkpoint), [committed, longer]);
  for (const res of r.results) {
    t.ok(Object.keys(res.envs).length >= 1, `${res.checkpoint}: ${Object.keys(res.envs).join(', ')} played`);
    t.ok(res.envs['reverse-word'], 'the valid reasoning module was played');
    t.ok(Object.keys(res.invalid).length >= 1, 'the broken module is reported invalid, not fatal');
  }
  t.equal(r.paired.length, 1, 'the two are paired on the same instances');

  const text = await runEvalCommand([committed, '--suite', FIXTURE_SUITE, '--seeds', '1', '--hint', 'off']);
  t.equal(text.code, 0, text.stderr);
  t.match(text.stdout, /reverse-word\s+reasoning/, 'the table names the module');
});
