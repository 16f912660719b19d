// `spade experiment --config FILE` over the smoke preset, end to end: both arms (SPADE, whose designer spends most of its tokens, and the
// fixed baseline, which spends them all on the agent) run from the base checkpoint to the same policy-token budget,
// counted by the engine, and their totals agree within 5%; results.json and summary.md are written.
// Real runs: child `spade start` hosts with embedded nats-server, QuickJS sandbox, onnxruntime; real held-out eval.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { experimentCommand, PRESETS, type ExperimentResults } from '../../experiment/index.js';
import { tempDir } from '../helpers/nats.js';

const BUDGET = 2 * PRESETS.smoke!.budgetTokens;

t.setTimeout(1_800_000); // two whole runs of the base checkpoint and a held-out eval: about 5.5 minutes alone, 2–3 times that on a loaded machine

t.test('the smoke experiment runs both arms to policy-token totals within 5% of each other', { timeout: 1_800_000 }, async (t) => {
  const dir = tempDir(t, 'spade-exp-smoke-'), out = join(dir, 'exp');
  // The smoke preset's runs, with the evaluation cut to what the comparison needs: no mid-run curve point, one
  // held-out module and seed (the preset's evaluation is what the suite's other experiment tests exercise).
  // The budget is the one docs/evaluation.md says 5% needs, about ten iterations of the costliest arm: a spade
  // iteration costs ~1,040 tokens and an arm ends within half an iteration of its budget, so at the preset's 6,000
  // the spread reached 5.05% in a quiet CI run (spade 6,240, fixed 5,925); at 12,000 it is at most about 4.8%.
  writeFileSync(join(dir, 'experiment.json'), JSON.stringify({ preset: 'smoke', budgetTokens: BUDGET, curvePoints: 1, eval: { files: ['games/walk-line.js'], seeds: 1 } }));
  const err: string[] = [];
  const code = await experimentCommand(['--config', join(dir, 'experiment.json'), '--out', out], {
    stdout: new Writable({ write(_c, _e, cb) { cb(); } }),
    stderr: new Writable({ write(c, _e, cb) { err.push(String(c)); cb(); } }),
  });
  t.equal(code, 0, `exit 0 (${err.join('').slice(-600)})`);
  const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ExperimentResults;
  const spade = r.arms.spade!.runs[0]!.tokens, fixed = r.arms['fixed-envs']!.runs[0]!.tokens;
  t.ok(spade.sampledDesigner > 0, `SPADE is charged its designer's tokens (${spade.sampledDesigner})`);
  t.equal(fixed.sampledDesigner, 0, 'the fixed baseline has no designer');
  t.ok(fixed.sampledAgent > 0 && fixed.trained > 0, 'the fixed baseline samples and trains agent tokens');
  for (const [arm, tok] of [['spade', spade], ['fixed-envs', fixed]] as const)
    t.ok(Math.abs(tok.total - BUDGET) <= 0.05 * BUDGET, `${arm}: ${tok.total} policy tokens, within 5% of the budget ${BUDGET}`);
  // The experiment's measure (docs/evaluation.md, accounting.spread): (max − min) / max, computed here from the totals.
  const spread = (Math.max(spade.total, fixed.total) - Math.min(spade.total, fixed.total)) / Math.max(spade.total, fixed.total);
  t.ok(spread <= 0.05, `the arms' totals agree within 5% (spread ${(spread * 100).toFixed(2)}%)`);
  t.ok(Math.abs(r.accounting.spread - spread) < 1e-12, `results.json reports that spread (${r.accounting.spread})`);
  t.equal(r.accounting.within5Percent, true);
  t.ok(existsSync(join(out, 'summary.md')), 'summary.md written');
  t.ok(r.heldout.spadeMinusFixed && r.heldout.spadeMinusFixed.ci95.length === 2, 'the paired held-out difference is there');
});
