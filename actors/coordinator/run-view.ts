// The live terminal view of a run: one screen redrawn in place on a TTY, or one line per refresh otherwise.
import { etaSeconds, progressBar } from '../../runtime/progress.js';
import type { RunStats } from './run-stats.js';
import { summary } from './run-summary.js';

const f = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '—');

const budget = (t: { budgetTokens?: number }): string => (t.budgetTokens !== undefined && Number.isFinite(t.budgetTokens) ? ` of ${t.budgetTokens}` : '');

export interface ViewTarget {
  iterations: number;
  minutes: number;
  budgetTokens?: number;
}

/**
 * How far the run is toward whichever of its limits is nearest (iterations, minutes, policy-token budget), and the time
 * left at the pace so far; null when the run has no finite limit.
 */
export function progress(done: { iterations: number; elapsedSec: number; tokens: number }, target: ViewTarget): { fraction: number; of: string; etaSec: number | null } | null {
  const parts: Array<{ fraction: number; of: string }> = [];
  if (Number.isFinite(target.iterations) && target.iterations > 0) parts.push({ fraction: done.iterations / target.iterations, of: `${target.iterations} iterations` });
  if (Number.isFinite(target.minutes) && target.minutes > 0) parts.push({ fraction: done.elapsedSec / (target.minutes * 60), of: `${target.minutes} min` });
  if (target.budgetTokens !== undefined && Number.isFinite(target.budgetTokens) && target.budgetTokens > 0) parts.push({ fraction: done.tokens / target.budgetTokens, of: `${target.budgetTokens} policy tokens` });
  if (parts.length === 0) return null;
  const p = parts.reduce((a, b) => (b.fraction > a.fraction ? b : a));
  const fraction = Math.min(1, Math.max(0, p.fraction));
  return { fraction, of: p.of, etaSec: etaSeconds(fraction, done.elapsedSec) };
}

/** The progress line's bar: `[#########.........]  45% of 400 iterations, about 3.2 min left` */
export function progressText(p: NonNullable<ReturnType<typeof progress>>, width = 30): string {
  return progressBar(p.fraction, p.of, p.etaSec, width);
}

export function renderView(s: RunStats, now: number, target: ViewTarget): string {
  const m = summary(s, now);
  const stages = Object.entries(m.rejectedByStage)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const of = Number.isFinite(target.iterations) ? `/${target.iterations}` : '';
  const mins = Number.isFinite(target.minutes) ? ` of ${target.minutes} min` : '';
  const p = progress({ iterations: m.iterationsDone, elapsedSec: m.elapsedSec, tokens: m.tokens.total }, target);
  return [
    ...(p ? [`progress      ${progressText(p)}`] : []),
    `SPADE run — ${(m.elapsedSec / 60).toFixed(1)} min${mins}   iteration ${m.iterationsDone}${of} done, ${m.iterationsIssued} issued   policy v${m.policyVersion}`,
    `environments  proposed ${m.proposed}   accepted ${m.accepted}   rejected ${m.rejected}${stages ? ` (${stages})` : ''}   replayed ${m.replayed} (return without hint ${f(m.meanReplayReturnNoHint)})`,
    `novelty       novel ${m.novelty.novel}/${m.novelty.scored} (${f(m.novelty.novelFraction * 100, 0)}%)   new structure ${m.novelty.newStructure} (${f(m.novelty.newStructureFraction * 100, 0)}%)   library copies ${m.novelty.libraryCopies}   mean similarity to library ${f(m.novelty.meanLibrarySimilarity, 2)}   doc words ${f(m.grounding.meanDocWords, 1)} (control ${f(m.grounding.meanControlWords, 1)})`,
    `regret        mean ${f(m.meanRegret)} on ${m.feasible} feasible (all ${m.evaluated}: ${f(m.meanRegretAll)})   return with hint ${f(m.meanReturnHint)}   without ${f(m.meanReturnNoHint)}`,
    `learner       updates ${m.learner.updates}   loss ${f(m.learner.loss, 4)}   staleness mean ${f(m.learner.stalenessMean, 2)} max ${m.learner.stalenessMax}   dropped ${m.learner.dropped}   busy ${f(m.learner.busyFraction * 100, 0)}%`,
    `throughput    ${f(m.trajectoriesPerSec, 2)} trajectories/s   ${m.trajectories} trajectories`,
    `policy tokens ${m.tokens.total}${budget(target)}   sampled designer ${m.tokens.sampledDesigner} agent ${m.tokens.sampledAgent} (agent share ${f(m.tokens.agentShare * 100, 0)}%)   trained ${m.tokens.trained}`,
  ].join('\n');
}

/** Writes the view: in place on a TTY (cursor up + clear), else a compact single line. */
export class ViewWriter {
  private lines = 0;
  constructor(private readonly out: NodeJS.WriteStream, private readonly mode: 'tty' | 'lines' | 'off') {}

  write(text: string): void {
    if (this.mode === 'off') return;
    if (this.mode === 'tty') {
      const clear = this.lines > 0 ? `\x1b[${this.lines}A\x1b[0J` : '';
      // A line wider than the terminal wraps, and the next redraw would move up too few lines: cut each to fit.
      const cols = this.out.columns > 0 ? this.out.columns - 1 : Infinity;
      const lines = text.split('\n').map((l) => (l.length > cols ? `${l.slice(0, cols - 1)}…` : l));
      this.out.write(`${clear}${lines.join('\n')}\n`);
      this.lines = lines.length;
    } else {
      this.out.write(`${text.split('\n').map((l) => l.replace(/\s{2,}/g, ' ')).join(' | ')}\n`);
    }
  }
}
