// With eval.near set, results.json carries the near suite's figures beside the held-out suite's: the base and each
// arm's no-hint and hint return, each arm's difference from the base and the seed-paired SPADE − fixed difference,
// worked out by hand; summary.md has the section. Without it (or without every run's near evaluation), `near` is null.
import t from 'tap';
import { buildReport, type EnvReturns, type PlayableEnv } from '../../eval/index.js';
import { buildResults, formatSummary, resolveExperimentConfig, type CachedEval, type RunInput, type RunMetrics } from '../../experiment/index.js';

const envs: PlayableEnv[] = ['a', 'b'].map((k) => ({ key: k, file: `games/${k}.js`, family: 'games', code: '', codeHash: k, spec: { name: k, description: '', hint: '', maxTurns: 1, hasOracle: false } }));
const played = (rows: number[][]): Map<string, EnvReturns> => new Map(rows.map((r, i) => [envs[i]!.key, { noHint: r, hint: r.map((x) => 1 - x), episodes: 2 * r.length, faults: 0, faultCodes: {} }]));
function cached(checkpoint: string, rows: number[][]): CachedEval {
  const report = buildReport({ suite: 'h', seeds: [1001, 1002], temperature: 1, hint: true, envs, invalid: {}, checkpoints: [{ checkpoint, played: played(rows) }], bootstrap: { resamples: 300 } });
  return { report, timing: [], returns: [{ checkpoint, envs: Object.fromEntries([...played(rows)].map(([k, r]) => [k, { noHint: r.noHint, hint: r.hint }])) }] };
}
const metrics: RunMetrics = {
  tokens: { sampledDesigner: 0, sampledAgent: 500, trained: 500, total: 1000 }, agentEpisodes: 50, iterationsDone: 1, iterations: [],
  regret: { feasibleMean: null, allMean: null, feasible: 0, evaluated: 0 }, acceptance: null, meanDesignerReward: null,
  novelty: { scored: 0, novel: 0, novelFraction: null, newStructure: 0, newStructureFraction: null, libraryCopies: 0 }, curve: [],
  grounding: { scored: 0, meanDocWords: null, meanControlWords: null },
};
const zeros = [[0, 0], [0, 0]];
const run = (arm: 'spade' | 'fixed-envs', seed: number, near: number[][] | null): RunInput => {
  const ck = `${arm}-s${seed}/final`;
  return { arm, seed, runDir: `${arm}-s${seed}`, finalCheckpoint: ck, wallSec: 60, metrics, curve: [{ fraction: 1, tokens: 1000, checkpoint: ck }], eval: cached(ck, zeros), nearEval: near ? cached(ck, near) : null };
};

t.test('results.json reports the near suite', async (t) => {
  t.test('the near suite gets the held-out comparisons', async (t) => {
    const c = resolveExperimentConfig('smoke', { eval: { resamples: 300, near: { suite: 'envs/heldout-near', seeds: 2 } } });
    const runs = [run('spade', 1, [[1, 1], [1, 0]]), run('fixed-envs', 1, [[1, 0], [0, 0]])];
    const r = buildResults(c, cached('base', zeros), 'base', runs, cached('base', [[0, 1], [0, 0]]));
    const n = r.near!;
    t.ok(n, 'results.near');
    t.same([n.suite, n.seeds, n.environments], ['envs/heldout-near', 2, 2]);
    t.equal(n.base.meanReturnNoHint, 0.25, 'base: (0.5 + 0) / 2');
    t.equal(n.base.meanReturnHint, 0.75, 'base hinted');
    t.equal(n.arms.spade!.meanReturnNoHint, 0.75);
    t.equal(n.arms['fixed-envs']!.meanReturnNoHint, 0.25);
    t.ok(Math.abs(n.arms.spade!.minusBase!.mean - 0.5) < 1e-12, 'SPADE − base = 0.75 − 0.25');
    t.ok(Math.abs(n.spadeMinusFixed!.mean - 0.5) < 1e-12, 'SPADE − fixed = 0.75 − 0.25');
    t.equal(n.spadeMinusFixed!.pairs, 1);
    t.same(Object.keys(r.eval.near!.runs).sort(), ['fixed-envs-s1', 'spade-s1'], 'every run\'s near report');
    t.equal(r.heldout.spadeMinusFixed!.mean, 0, 'the held-out suite\'s figures are its own');
    t.match(formatSummary(r), /## Near suite: `envs\/heldout-near` \(2 modules × 2 seeds/);
    t.match(formatSummary(r), /\| spade \| 0\.750 .*\| 0\.500 \[/);
  });

  t.test('no near suite, or a run without its near evaluation: near is null', async (t) => {
    const off = resolveExperimentConfig('smoke', { eval: { resamples: 300 } });
    t.equal(buildResults(off, cached('base', zeros), 'base', [run('spade', 1, zeros)], cached('base', zeros)).near, null, 'eval.near null');
    const on = resolveExperimentConfig('smoke', { eval: { resamples: 300, near: { suite: 'x', seeds: 2 } } });
    t.equal(buildResults(on, cached('base', zeros), 'base', [run('spade', 1, null)], cached('base', zeros)).near, null, 'a run lacks it');
    t.notMatch(formatSummary(buildResults(off, cached('base', zeros), 'base', [run('spade', 1, zeros)])), /Near suite/);
  });
});
