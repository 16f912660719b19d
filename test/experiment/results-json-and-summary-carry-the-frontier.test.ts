// results.json `frontier` holds, for each arm that designs, every run's frontier figures (in seed order, with its
// seed and run directory) and the runs pooled; the fixed-environment arm designs nothing and has none. summary.md
// has the table (each run, then the pooled row) and the window-search TOP histogram against the library's value.
import t from 'tap';
import { buildReport, type EnvReturns, type PlayableEnv } from '../../eval/index.js';
import { buildResults, formatSummary, readFrontierUnits, resolveExperimentConfig, type CachedEval, type RunInput, type RunMetrics } from '../../experiment/index.js';
import { libraryModule, writeRunArchive } from '../helpers/run-archive.js';

const envs: PlayableEnv[] = ['a'].map((k) => ({ key: k, file: `games/${k}.js`, family: 'games', code: '', codeHash: k, spec: { name: k, description: '', hint: '', maxTurns: 1, hasOracle: false } }));
const played = (rows: number[][]): Map<string, EnvReturns> => new Map(rows.map((r, i) => [envs[i]!.key, { noHint: r, hint: r, episodes: 2 * r.length, faults: 0, faultCodes: {} }]));
function cached(checkpoint: string, rows: number[][]): CachedEval {
  const report = buildReport({ suite: 'h', seeds: [1001, 1002], temperature: 1, hint: true, envs, invalid: {}, checkpoints: [{ checkpoint, played: played(rows) }], bootstrap: { resamples: 100 } });
  return { report, timing: [], returns: [{ checkpoint, envs: Object.fromEntries([...played(rows)].map(([k, r]) => [k, { noHint: r.noHint, hint: r.hint }])) }] };
}
const metrics: RunMetrics = {
  tokens: { sampledDesigner: 0, sampledAgent: 500, trained: 500, total: 1000 }, agentEpisodes: 50, iterationsDone: 1, iterations: [],
  regret: { feasibleMean: null, allMean: null, feasible: 0, evaluated: 0 }, acceptance: null, meanDesignerReward: null,
  novelty: { scored: 0, novel: 0, novelFraction: null, newStructure: 0, newStructureFraction: null, libraryCopies: 0 }, curve: [],
  grounding: { scored: 0, meanDocWords: null, meanControlWords: null },
};

t.test('results.json and summary.md carry the frontier', async (t) => {
  const archive = (top: number, regret: number) => writeRunArchive(t, {
    accepted: [{ envId: 'c1', iteration: 1, name: 'window-search', parents: ['library:window-search'] }],
    code: { c1: libraryModule('games/window-search', { TOP: top }) },
    evaluated: [1, 2].map((iteration) => ({ envId: `e${iteration}`, iteration, feasible: true, regret, returnNoHint: 0.5 })),
    metrics: [1, 2].map((index) => ({ event: 'iteration', iteration: { index, meanDesignerReward: index / 10 } })),
  });
  const run = (arm: 'spade' | 'fixed-envs', seed: number, runDir: string): RunInput => {
    const ck = `${arm}-s${seed}/final`;
    return { arm, seed, runDir, finalCheckpoint: ck, wallSec: 60, metrics, curve: [{ fraction: 1, tokens: 1000, checkpoint: ck }], eval: cached(ck, [[0, 1]]), frontier: readFrontierUnits(runDir) };
  };
  const s1 = archive(100, 0.25), s2 = archive(64, 0.75);
  const c = resolveExperimentConfig('smoke', { eval: { resamples: 200 } });
  const r = buildResults({ ...c, seeds: { spade: 2, 'fixed-envs': 1 } }, cached('base', [[0, 0]]), 'base', [run('spade', 2, s2), run('spade', 1, s1), run('fixed-envs', 1, s1)]);
  t.same(Object.keys(r.frontier), ['spade'], 'only the arm that designs');
  const f = r.frontier.spade!;
  t.same(f.runs.map((x) => [x.seed, x.runDir, x.regret.mean]), [[1, s1, 0.25], [2, s2, 0.75]], 'each run, in seed order');
  t.same([f.pooled.runs, f.pooled.regret.mean, f.pooled.regret.resampled], [2, 0.5, ['runSeeds', 'environments']], 'pooled');
  t.ok(Math.abs(f.pooled.reward.slope! - 0.1) < 1e-12, 'reward slope over the run');
  t.same(f.pooled.knobs.families['window-search']!.knobs.TOP!.values, { 64: 1, 100: 1 });
  const md = formatSummary(r);
  t.match(md, /## The designer on the frontier/);
  t.match(md, /\| spade \| s1 \| 0\.250 \[0\.250, 0\.250\] \(2\) \| 0\.100 /, 'a run row');
  t.match(md, /\| spade \| pooled \(2\) \| 0\.500 \[0\.250, 0\.750\] \(4\) \|/, 'the pooled row');
  t.match(md, /\| spade \| 2 \| 64 \| 64 ×1, 100 ×1 \|/, 'the window-search TOP histogram');
  t.notMatch(formatSummary({ ...r, frontier: {} }), /designer on the frontier/, 'no designing arm: no section');
});
