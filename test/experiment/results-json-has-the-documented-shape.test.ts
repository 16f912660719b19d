// results.json, built from two arms × two run seeds of held-out returns (eval's own report builder) and run metrics:
// the documented fields are there, per arm and per run, and the headline SPADE − fixed difference is the seed-paired
// mean worked out by hand, with eval's two-level bootstrap interval around it.
import t from 'tap';
import { buildReport, type EnvReturns, type PlayableEnv } from '../../eval/index.js';
import { buildResults, formatSummary, resolveExperimentConfig, type CachedEval, type RunInput, type RunMetrics } from '../../experiment/index.js';

const envs: PlayableEnv[] = ['a', 'b', 'c'].map((k) => ({ key: k, file: `games/${k}.js`, family: 'games', code: '', codeHash: k, spec: { name: k, description: '', hint: '', maxTurns: 1, hasOracle: false } }));
const played = (rows: number[][]): Map<string, EnvReturns> => new Map(rows.map((r, i) => [envs[i]!.key, { noHint: r, hint: r.map((x) => x / 2), episodes: 2 * r.length, faults: 0, faultCodes: {} }]));
function cached(checkpoint: string, rows: number[][]): CachedEval {
  const report = buildReport({ suite: 'h', seeds: [1001, 1002], temperature: 1, hint: true, envs, invalid: {}, checkpoints: [{ checkpoint, played: played(rows) }], bootstrap: { resamples: 300 } });
  return { report, timing: [], returns: [{ checkpoint, envs: Object.fromEntries([...played(rows)].map(([k, r]) => [k, { noHint: r.noHint, hint: r.hint }])) }] };
}
const metrics = (total: number, novel: number): RunMetrics => ({
  tokens: { sampledDesigner: total / 2, sampledAgent: total / 4, trained: total / 4, total }, agentEpisodes: total / 20, iterationsDone: 3,
  iterations: [0, 1, 2].map((i) => ({ index: i, acceptance: 0.5, meanRegret: 0.1 * i, meanRegretAll: 0, meanDesignerReward: 0.2, novelFraction: 0.5, tokens: (total / 3) * (i + 1) })),
  regret: { feasibleMean: 0.2, allMean: 0.1, feasible: 2, evaluated: 4 }, acceptance: 0.5, meanDesignerReward: 0.2,
  novelty: { scored: 4, novel, novelFraction: novel / 4, newStructure: 1, newStructureFraction: 1 / 4, libraryCopies: 1 }, curve: [],
  grounding: { scored: novel, meanDocWords: novel ? 3 : null, meanControlWords: novel ? 1 : null },
});
const run = (arm: 'spade' | 'fixed-envs', seed: number, total: number, rows: number[][]): RunInput => {
  const ck = `${arm}-s${seed}/final`;
  return { arm, seed, runDir: `${arm}-s${seed}`, finalCheckpoint: ck, wallSec: 60, metrics: metrics(total, arm === 'spade' ? 2 : 0), curve: [{ fraction: 1, tokens: total, checkpoint: ck }], eval: cached(ck, rows) };
};

t.test('results.json has the documented shape and the seed-paired SPADE − fixed difference', async (t) => {
  const c = resolveExperimentConfig('smoke', { eval: { resamples: 300 } });
  const runs = [
    run('spade', 1, 1000, [[1, 1], [0, 1], [0, 0]]),
    run('fixed-envs', 1, 990, [[1, 0], [0, 0], [0, 0]]),
    run('spade', 2, 1010, [[1, 1], [1, 1], [0, 0]]),
    run('fixed-envs', 2, 1000, [[1, 1], [0, 0], [0, 0]]),
  ];
  const r = buildResults({ ...c, seeds: { spade: 2, 'fixed-envs': 2 } }, cached('base', [[0, 0], [0, 0], [0, 0]]), 'base', runs);
  for (const k of ['experiment', 'eval', 'base', 'arms', 'accounting', 'heldout', 'novelFraction', 'regret']) t.ok(k in r, `results.${k}`);
  t.same(Object.keys(r.eval.runs).sort(), ['fixed-envs-s1', 'fixed-envs-s2', 'spade-s1', 'spade-s2'], 'the eval report of every run');
  const spade = r.arms.spade!;
  t.equal(spade.seeds, 2);
  t.equal(spade.runs.length, 2);
  for (const k of ['tokens', 'wallSec', 'iterations', 'curve', 'heldout', 'regret', 'acceptance', 'novelFraction', 'meanDesignerReward']) t.ok(k in spade.runs[0]!, `run.${k}`);
  t.equal(spade.runs[0]!.iterations.length, 3, 'per-iteration figures');
  t.ok(Math.abs(spade.agentShare! - 1 / 3) < 1e-12, "the agent's share of the sampled tokens (a quarter of the total against the designer's half)");
  t.same(spade.curve.map((p) => p.fraction), [1]);
  // Differences by cell, averaged over the two seed pairs: a (0+1)/2, (0+0)/2 → row mean .25; b (0+1)/2, (1+1)/2 → .75; c 0.
  t.ok(Math.abs(r.heldout.spadeMinusFixed!.mean - (0.25 + 0.75 + 0) / 3) < 1e-12, 'SPADE − fixed = 1/3');
  const [lo, hi] = r.heldout.spadeMinusFixed!.ci95;
  t.ok(lo <= 1 / 3 && 1 / 3 <= hi && lo >= 0, `interval [${lo}, ${hi}] around it, never below 0 (no cell favours fixed)`);
  t.equal(r.heldout.spadeMinusFixed!.pairs, 2);
  t.ok(Math.abs(spade.heldout.meanReturnNoHint! - (1 + 0.75 + 0) / 3) < 1e-12, 'arm held-out mean over its runs');
  t.equal(r.novelFraction, 0.5, 'novel fraction of the SPADE arm (4 of 8)');
  t.same(spade.grounding, { docWords: 3, controlWords: 1 }, 'grounding pooled over the runs');
  t.same(r.arms['fixed-envs']!.grounding, { docWords: null, controlWords: null }, 'the fixed arm designs nothing');
  t.equal(r.newStructureFraction, 0.25);
  t.equal(r.regret.feasibleMean, 0.2);
  t.same(r.accounting.totals, { 'spade-s1': 1000, 'fixed-envs-s1': 990, 'spade-s2': 1010, 'fixed-envs-s2': 1000 });
  t.ok(Math.abs(r.accounting.spread - 20 / 1010) < 1e-12 && r.accounting.within5Percent, 'compute spread (max − min) / max');
  t.match(formatSummary(r), /\| spade \| 2 \| 50 \| 1005 \|/, 'summary.md has the arm row: agent episodes, then policy tokens');
  t.equal(r.accounting.unit, 'tokens', 'a token budget: agreement in tokens');
  t.same(r.arms.spade!.agentEpisodes, { mean: 50.25, min: 50, max: 50.5 }, 'agent episodes per arm beside the tokens');
});
