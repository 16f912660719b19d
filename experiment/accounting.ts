// Compute accounting of an experiment, read from each run's metrics.jsonl: the policy tokens a run spent (sampled by
// the designer and the agent, trained by the learner: counted by the coordinator, actors/coordinator/budget.ts), its
// per-iteration figures, its learning-curve snapshots; and how closely the arms' totals agree.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunReadError } from './errors.js';

export interface RunTokens {
  sampledDesigner: number;
  sampledAgent: number;
  trained: number;
  total: number;
}

export interface IterationFigures {
  index: number;
  acceptance: number | null;
  meanRegret: number | null;
  meanRegretAll: number | null;
  meanDesignerReward: number | null;
  novelFraction: number | null;
  /** Policy tokens spent by the end of this iteration (the run's running total). */
  tokens: number;
}

export interface RunMetrics {
  tokens: RunTokens;
  /** Agent episodes played, hinted included (0 in a run from before the coordinator counted them). */
  agentEpisodes: number;
  iterationsDone: number;
  iterations: IterationFigures[];
  /** The final line's run-wide figures. */
  regret: { feasibleMean: number | null; allMean: number | null; feasible: number; evaluated: number };
  acceptance: number | null;
  meanDesignerReward: number | null;
  novelty: { scored: number; novel: number; novelFraction: number | null; newStructure: number; newStructureFraction: number | null; libraryCopies: number };
  /** Accepted environments' document words beside the control document's (designer grounding; null without any). */
  grounding: { scored: number; meanDocWords: number | null; meanControlWords: number | null };
  curve: { point: number; of: number; fraction: number; tokens: number; checkpoint: string }[];
}

type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

export function readRunMetrics(runDir: string): RunMetrics {
  const file = join(runDir, 'metrics.jsonl');
  if (!existsSync(file)) throw new RunReadError(`run ${runDir}: no metrics.jsonl`, runDir);
  const lines: Line[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      lines.push(JSON.parse(l) as Line);
    } catch (err) {
      throw new RunReadError(`run ${runDir}: metrics.jsonl line ${i + 1} is not JSON`, runDir, err);
    }
  });
  // The last summary line: a resumed run's coordinator recounts from the streams, so it holds the whole run.
  const last = [...lines].reverse().find((l) => l.event === 'final' || l.event === 'stop' || l.event === 'iteration' || l.event === 'tick');
  if (!last || !last.tokens) throw new RunReadError(`run ${runDir}: metrics.jsonl has no summary line with token counts`, runDir);
  const t = last.tokens as Line;
  const byIndex = new Map<number, IterationFigures>();
  for (const l of lines) {
    if (l.event !== 'iteration' || !l.iteration) continue;
    const it = l.iteration as Line;
    byIndex.set(it.index, {
      index: it.index, acceptance: num(it.acceptance), meanRegret: num(it.meanRegret), meanRegretAll: num(it.meanRegretAll),
      meanDesignerReward: num(it.meanDesignerReward), novelFraction: num(it.novelFraction), tokens: (l.tokens as Line | undefined)?.total ?? 0,
    });
  }
  return {
    tokens: { sampledDesigner: t.sampledDesigner, sampledAgent: t.sampledAgent, trained: t.trained, total: t.total },
    agentEpisodes: typeof last.agentEpisodes === 'number' ? last.agentEpisodes : 0,
    iterationsDone: last.iterationsDone,
    iterations: [...byIndex.values()].sort((a, b) => a.index - b.index),
    regret: { feasibleMean: num(last.meanRegret), allMean: num(last.meanRegretAll), feasible: last.feasible ?? 0, evaluated: last.evaluated ?? 0 },
    acceptance: num(last.acceptance),
    meanDesignerReward: num(last.meanDesignerReward),
    novelty: { scored: last.novelty?.scored ?? 0, novel: last.novelty?.novel ?? 0, novelFraction: num(last.novelty?.novelFraction), newStructure: last.novelty?.newStructure ?? 0, newStructureFraction: num(last.novelty?.newStructureFraction), libraryCopies: last.novelty?.libraryCopies ?? 0 },
    grounding: { scored: last.grounding?.scored ?? 0, meanDocWords: num(last.grounding?.meanDocWords), meanControlWords: num(last.grounding?.meanControlWords) },
    curve: lines.filter((l) => l.event === 'curve').map((l) => ({ point: l.point, of: l.of, fraction: l.fraction ?? l.point / l.of, tokens: l.tokens, checkpoint: l.checkpoint })),
  };
}

/** How closely runs spent the same compute: the spread (max − min) / max of their totals and max / min. */
export function tokenAgreement(totals: readonly number[]): { min: number; max: number; spread: number; maxOverMin: number } {
  const min = Math.min(...totals), max = Math.max(...totals);
  return { min, max, spread: max > 0 ? (max - min) / max : 0, maxOverMin: min > 0 ? max / min : Infinity };
}
