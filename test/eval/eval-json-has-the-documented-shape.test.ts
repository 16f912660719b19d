// `spade eval --json` on a 3-module suite with the base checkpoint prints one JSON line of the documented shape:
// suite, seeds, temperature, per checkpoint the means and 95% intervals overall and per family (the directory name),
// per environment (by spec.name) its returns, episodes and faults, and the invalid modules.
import t from 'tap';
import { BASE, evalJson, FIXTURE_SUITE } from './run-eval-command.js';

const isCi = (c: unknown): boolean => Array.isArray(c) && c.length === 2 && c.every((x) => typeof x === 'number') && c[0] <= c[1];

t.test('one JSON line, every documented field', async (t) => {
  const r = await evalJson([BASE, '--suite', FIXTURE_SUITE, '--seeds', '2', '--temperature', '0.7']);
  t.equal(r.suite, FIXTURE_SUITE);
  t.equal(r.seeds, 2);
  t.equal(r.temperature, 0.7);
  t.match(r.bootstrap, /two-level/);
  t.same(r.paired, [], 'one checkpoint: no pairs');
  t.equal(r.results.length, 1);
  const c = r.results[0]!;
  t.equal(c.checkpoint, BASE);
  for (const m of [c.meanReturnNoHint, c.meanReturnHint]) t.ok(typeof m === 'number' && m >= 0 && m <= 1, `mean ${m}`);
  t.ok(isCi(c.ci95NoHint) && isCi(c.ci95Hint), 'intervals are [lo, hi]');
  t.same(Object.keys(c.families).sort(), ['games', 'reasoning'], 'families are the parent directories of the valid modules');
  for (const f of Object.values(c.families)) t.ok(f.environments === 1 && isCi(f.ci95NoHint) && isCi(f.ci95Hint));
  t.same(Object.keys(c.envs).sort(), ['faults-unseen', 'reverse-word'], 'environments by spec.name');
  const e = c.envs['reverse-word']!;
  t.equal(e.episodes, 4, '2 seeds x (no hint, hint)');
  t.equal(e.faults, 0);
  t.ok(typeof e.returnNoHint === 'number' && typeof e.returnHint === 'number');
  t.same(Object.keys(c.invalid), ['tools/broken-syntax.js']);
});
