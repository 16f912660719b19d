// results.json's seed-paired SPADE − fixed difference, each arm's difference from the base and its held-out figure
// resample the run seeds (pairs of them for the paired difference) as well as environments and eval seeds, and say
// so. Pair 1 has SPADE solving everything and the baseline nothing, pair 2 neither: the mean is 0.5 and, with the
// pairs resampled, the interval reaches both 0 and 1 — averaging the pairs first would have shown [0.5, 0.5]. With
// one run seed per arm the intervals resample environments and eval seeds only.
import t from 'tap';
import { buildReport, type EnvReturns, type PlayableEnv } from '../../eval/index.js';
import { buildResults, formatSummary, resolveExperimentConfig, type CachedEval, type RunInput, type RunMetrics } from '../../experiment/index.js';

const envs: PlayableEnv[] = ['a', 'b'].map((k) => ({ key: k, file: `games/${k}.js`, family: 'games', code: '', codeHash: k, spec: { name: k, description: '', hint: '', maxTurns: 1, hasOracle: false } }));
const played = (rows: number[][]): Map<string, EnvReturns> => new Map(rows.map((r, i) => [envs[i]!.key, { noHint: r, hint: r, episodes: 2 * r.length, faults: 0, faultCodes: {} }]));
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
const ones = [[1, 1], [1, 1]], zeros = [[0, 0], [0, 0]];
const run = (arm: 'spade' | 'fixed-envs', seed: number, rows: number[][]): RunInput => {
  const ck = `${arm}-s${seed}/final`;
  return { arm, seed, runDir: `${arm}-s${seed}`, finalCheckpoint: ck, wallSec: 60, metrics, curve: [{ fraction: 1, tokens: 1000, checkpoint: ck }], eval: cached(ck, rows), nearEval: cached(ck, rows) };
};
const ALL = ['runSeeds', 'environments', 'evalSeeds'];

t.test('SPADE − fixed, minus-base and arm figures resample the run seeds', async (t) => {
  const c = resolveExperimentConfig('smoke', { eval: { resamples: 400, near: { suite: 'near', seeds: 2 } } });
  const runs = [run('spade', 1, ones), run('fixed-envs', 1, zeros), run('spade', 2, zeros), run('fixed-envs', 2, zeros)];
  const r = buildResults({ ...c, seeds: { spade: 2, 'fixed-envs': 2 } }, cached('base', zeros), 'base', runs, cached('base', zeros));
  for (const [name, d] of [['heldout', r.heldout.spadeMinusFixed!], ['near', r.near!.spadeMinusFixed!]] as const) {
    t.same([d.mean, d.pairs], [0.5, 2], `${name}: the plain mean of the two pairs`);
    t.same(d.ci95, [0, 1], `${name}: the pairs resampled`);
    t.same(d.resampled, ALL, `${name}: states its levels`);
  }
  const mb = r.heldout.minusBase.spade!;
  t.same([mb.mean, mb.ci95, mb.resampled], [0.5, [0, 1], ALL], "SPADE − base resamples the arm's runs");
  t.same(r.near!.arms.spade!.minusBase!.resampled, ALL, 'and on the near suite');
  t.same(r.arms.spade!.heldout.ci95NoHint, [0, 1], "the arm's held-out interval resamples its runs");
  t.same(r.arms.spade!.heldout.resampled, ALL);
  t.equal(r.arms.spade!.runs[0]!.heldout.resampled, undefined, 'a single run states nothing: it is one table');
  t.match(formatSummary(r), /seed-paired \(2 pairs; run seeds, environments and eval seeds resampled\): 0\.500 \[0\.000, 1\.000\]/);

  const one = buildResults(c, cached('base', zeros), 'base', [run('spade', 1, ones), run('fixed-envs', 1, zeros)]);
  t.same(one.heldout.spadeMinusFixed!.resampled, ['environments', 'evalSeeds'], 'one pair: no run level');
  t.same(one.heldout.spadeMinusFixed!.ci95, [1, 1]);
  t.same(one.arms.spade!.heldout.resampled, ['environments', 'evalSeeds']);
});
