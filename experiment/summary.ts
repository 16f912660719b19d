// summary.md of an experiment: the paper-style table (one row per arm: run seeds, policy tokens, wall-clock,
// held-out no-hint and hint return with 95% CI, regret on feasible environments, acceptance, novel fraction), the
// headline paired difference, the learning curves and the compute agreement; the designer's frontier figures.
import type { FrontierFigures } from './frontier.js';
import type { ExperimentResults } from './results.js';

const f = (x: number | null | undefined, d = 3): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
const ci = (c: [number, number] | null): string => (c ? ` [${f(c[0])}, ${f(c[1])}]` : '');
const levels = (l: readonly string[] | undefined): string => (l?.includes('runSeeds') ? 'run seeds, environments and eval seeds resampled' : 'environments and eval seeds resampled');
const k = (n: number): string => (n >= 10_000 ? `${(n / 1000).toFixed(0)}k` : String(Math.round(n)));

export function formatSummary(r: ExperimentResults): string {
  const e = r.experiment;
  const lines = [
    `# Experiment (${e.preset})`,
    '',
    `Every arm starts from \`${e.baseCheckpoint}\` and runs to ${e.budgetEpisodes > 0 ? `${e.budgetEpisodes} agent episodes (hinted included: the arms are compared at equal agent experience, their policy tokens and wall-clock beside)` : `${e.budgetTokens} policy tokens (sampled by the designer and the agent, plus trained by the learner; the designer's are charged to the arms that design)`}. Held-out: \`${e.eval.suite}\`${e.eval.files.length ? ` (${e.eval.files.length} modules)` : ''}, ${e.eval.seeds} seeds from ${e.eval.firstSeed}; 95% intervals by ${r.eval.base.bootstrap}.`,
    '',
    '| arm | seeds | agent episodes | policy tokens | agent share | wall (min) | held-out no hint | held-out hint | regret (feasible) | acceptance | novel | new structure | doc words (control) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| base checkpoint | — | 0 | 0 | — | — | ${f(r.base.meanReturnNoHint)}${ci(r.base.ci95NoHint)} | ${f(r.base.meanReturnHint)}${ci(r.base.ci95Hint)} | — | — | — | — | — |`,
  ];
  for (const arm of e.arms) {
    const a = r.arms[arm];
    if (!a) continue;
    lines.push(`| ${arm} | ${a.seeds} | ${k(a.agentEpisodes.mean)} | ${k(a.tokens.mean)} | ${f(a.agentShare, 2)} | ${f(a.wallSec.mean / 60, 1)} | ${f(a.heldout.meanReturnNoHint)}${ci(a.heldout.ci95NoHint)} | ${f(a.heldout.meanReturnHint)}${ci(a.heldout.ci95Hint)} | ${f(a.regret.feasibleMean)} | ${f(a.acceptance, 2)} | ${f(a.novelFraction, 2)} | ${f(a.newStructureFraction, 2)} | ${f(a.grounding.docWords, 2)} (${f(a.grounding.controlWords, 2)}) |`);
  }
  const d = r.heldout.spadeMinusFixed;
  lines.push('', d
    ? `**SPADE − fixed environments**, held-out no-hint return, seed-paired (${d.pairs} pair${d.pairs > 1 ? 's' : ''}; ${levels(d.resampled)}): ${f(d.mean)}${ci(d.ci95)}${d.ci95[0] > 0 ? ' — SPADE ahead' : d.ci95[1] < 0 ? ' — the fixed baseline ahead' : ' — no difference the interval can tell apart from zero'}.`
    : '**SPADE − fixed environments**: not measured (both arms are needed).');
  const n = r.near;
  if (n) {
    lines.push('', `## Near suite: \`${n.suite}\` (${n.environments} modules × ${n.seeds} seeds, final checkpoints only)`, '',
      'Library families the agent trained on, at other knob settings: generalisation one step from training, reported beside the held-out suite, never instead of it.', '',
      '| arm | no hint | hint | no hint − base |', '|---|---|---|---|',
      `| base checkpoint | ${f(n.base.meanReturnNoHint)}${ci(n.base.ci95NoHint)} | ${f(n.base.meanReturnHint)}${ci(n.base.ci95Hint)} | — |`);
    for (const arm of e.arms) {
      const a = n.arms[arm];
      if (a) lines.push(`| ${arm} | ${f(a.meanReturnNoHint)}${ci(a.ci95NoHint)} | ${f(a.meanReturnHint)}${ci(a.ci95Hint)} | ${a.minusBase ? `${f(a.minusBase.mean)}${ci(a.minusBase.ci95)}` : '—'} |`);
    }
    const nd = n.spadeMinusFixed;
    lines.push('', nd ? `SPADE − fixed environments on the near suite, seed-paired (${nd.pairs} pair${nd.pairs > 1 ? 's' : ''}; ${levels(nd.resampled)}): ${f(nd.mean)}${ci(nd.ci95)}.` : 'SPADE − fixed environments on the near suite: not measured.');
  }
  const spent = r.accounting.unit === 'episodes' ? r.accounting.episodes : r.accounting.totals;
  lines.push('', `Compute agreement (${r.accounting.unit === 'episodes' ? 'agent episodes' : 'policy tokens'}): run totals ${Object.entries(spent).map(([n, t]) => `${n} ${t}`).join(', ')}; spread ${(r.accounting.spread * 100).toFixed(1)}% (${r.accounting.within5Percent ? 'within' : 'NOT within'} 5%).`);
  // Arms may have different points (a run that ended before a snapshot's checkpoint lacks it): one column per fraction.
  const fractions = [...new Set(e.arms.flatMap((a) => (r.arms[a]?.curve ?? []).map((p) => p.fraction)))].sort((x, y) => x - y);
  lines.push('', '## Learning curves (held-out no-hint return at budget fractions)', '', `| arm | ${fractions.map((fr) => `${Math.round(fr * 100)}%`).join(' | ')} |`, `|---|${fractions.map(() => '---|').join('')}`);
  for (const arm of e.arms) {
    const a = r.arms[arm];
    if (a) lines.push(`| ${arm} | ${fractions.map((fr) => f(a.curve.find((p) => p.fraction === fr)?.meanReturnNoHint)).join(' | ')} |`);
  }
  lines.push(...frontierSection(r));
  lines.push('', `Regret is the mean over feasible environments (hinted return ≥ τ); novel = neither a library copy nor within Jaccard 0.8 of a library module or an earlier accepted environment; new structure = the same with string literals and numbers masked (new rules, not only new words or constants); doc words = words of the grounding document an accepted module brings in that its parent lacks, (control) = the same count against another document. Per-iteration figures and every eval report: results.json.`);
  return `${lines.join('\n')}\n`;
}

/** The designing arms' frontier figures, each run and pooled, and the window-search TOP histogram of the pooled runs. */
function frontierSection(r: ExperimentResults): string[] {
  const arms = r.experiment.arms.filter((a) => r.frontier[a]);
  if (arms.length === 0) return [];
  const row = (arm: string, run: string, x: FrontierFigures): string =>
    `| ${arm} | ${run} | ${f(x.regret.mean)}${ci(x.regret.ci95)} (${x.regret.feasible}) | ${f(x.reward.slope)}${ci(x.reward.ci95)} | ${f(x.band.firstHalf.share, 2)} → ${f(x.band.secondHalf.share, 2)} | ${f(x.band.difference, 2)}${ci(x.band.ci95)} |`;
  const band = r.frontier[arms[0]!]!.pooled.band.band;
  const lines = ['', '## The designer on the frontier', '',
    `Per designing run and pooled over the arm's runs (each run weighs the same; the pooled intervals resample the runs, then the environments or iterations within each). In band: the share of evaluated designs with no-hint return in [${band[0]}, ${band[1]}], first half of the run → second.`, '',
    '| arm | run | regret, feasible designs (n) | designer reward slope over the run | in band, first → second half | second − first |', '|---|---|---|---|---|---|'];
  for (const arm of arms) {
    const a = r.frontier[arm]!;
    for (const x of a.runs) lines.push(row(arm, `s${x.seed}`, x));
    if (a.runs.length > 1) lines.push(row(arm, `pooled (${a.pooled.runs})`, a.pooled));
  }
  lines.push('', '`window-search` TOP among accepted children (pooled over the runs), against the library\'s value:', '', '| arm | children | library | values (× children) |', '|---|---|---|---|');
  for (const arm of arms) {
    const fam = r.frontier[arm]!.pooled.knobs.families['window-search'];
    const top = fam?.knobs.TOP;
    const values = top ? Object.entries(top.values).sort((x, y) => Number(x[0]) - Number(y[0])).map(([v, n]) => `${v} ×${n}`).join(', ') : '';
    lines.push(`| ${arm} | ${fam?.children ?? 0} | ${top?.library ?? '—'} | ${values || '—'}${top?.missing ? ` (${top.missing} without TOP)` : ''} |`);
  }
  return lines;
}
