// Warm-start demonstrations of a contract-v2 module: each oracle episode carries the hint the sandbox returned for
// its seed, and a hinted row's prompt shows that instance hint (not spec.hint), so the warm start teaches the hinted
// agent what it will see in the loop; unhinted rows show no hint. Real sandbox, library module door-code.
import t from 'tap';
import { loadTokenizer } from '../../model/index.js';
import { SandboxPool } from '../../sandbox/index.js';
import { agentExamples, loadLibrary, oracleEpisodes } from '../../warmstart/index.js';

const tok = loadTokenizer();

t.test('hinted rows show the instance hint', async (t) => {
  const pool = new SandboxPool({ workers: 1, callTimeoutMs: 1000, wallClockKillMs: 10_000 });
  t.teardown(() => pool.close());
  const env = loadLibrary().find((e) => e.name === 'door-code')!;
  t.ok(env, 'door-code is in the library');
  const { episodes, stats } = await oracleEpisodes(pool, [env], [1, 2, 3, 4, 5, 6]);
  t.equal(stats.mismatched, 0);
  t.ok(episodes.length >= 3, `${episodes.length} winning episodes`);
  for (const ep of episodes) {
    const want = (await pool.reset({ code: env.code, seed: ep.seed })).hint;
    t.equal(ep.hint, want, `seed ${ep.seed}: the episode carries the sandbox's instance hint`);
    t.match(ep.hint, /^The door takes the \w+ code\.$/);
    const hinted = agentExamples(tok, env, ep, true, 1024).map((r) => tok.decode(r.tokens));
    const plain = agentExamples(tok, env, ep, false, 1024).map((r) => tok.decode(r.tokens));
    t.ok(hinted.every((text) => text.includes(ep.hint)), `seed ${ep.seed}: hinted rows show it`);
    t.ok(hinted.every((text) => !text.includes(env.spec.hint)), 'not the spec.hint fallback');
    t.ok(plain.every((text) => !text.includes('The door takes')), 'unhinted rows show no hint');
  }
  t.ok(new Set(episodes.map((e) => e.hint)).size >= 2, 'the hints differ between instances');
});
