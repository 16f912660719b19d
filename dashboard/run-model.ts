// The run as the dashboard and the report show it: a fold of the loop's events (environments accepted and rejected,
// labeled batches, metrics, trajectory groups) into the run's figures, its curves, the environment table with each
// environment's lineage, and an index of its episodes. The figures are the coordinator's own (run-stats.ts folds the
// same events the same way); the live dashboard feeds the model from the bus, the report from the run directory.
import { emptyStats, onAccepted, onLabeled, onMetric, onNovelty, onRejected, type NoveltyScore, type RunStats } from '../actors/coordinator/run-stats.js';
import { iterationSummary, summary } from '../actors/coordinator/run-summary.js';
import type { ProfileSummary } from '../actors/coordinator/run-profile.js';

/** One row of the environment table (no code: the detail carries it). */
export interface EnvRow {
  envId: string;
  iteration: number;
  status: 'accepted' | 'rejected';
  name: string;
  family: string;
  /** The failing validation stage of a rejected environment. */
  stage: string | null;
  reason: string | null;
  doc: string | null;
  parents: string[];
  children: string[];
  regret: number | null;
  returnHint: number | null;
  returnNoHint: number | null;
  feasible: boolean | null;
  designerReward: number | null;
  novel: boolean | null;
  libraryCopyOf: string | null;
  episodes: number;
}

/** What the detail view of one environment adds to its row. */
export interface EnvText {
  code: string;
  description: string | null;
  hint: string | null;
  maxTurns: number | null;
  /** The grounding document as the designer saw it (from its prompt), or null. */
  document: string | null;
  /** The parent module the designer edited, as its prompt showed it, or null. */
  parentCode: string | null;
  validation: Record<string, unknown> | null;
}

/** One episode in an environment's list; `ref` says where its group is stored (a stream sequence, or the inline data). */
export interface EpisodeRef {
  trajId: string;
  envId: string;
  hinted: boolean;
  seed: number;
  return: number;
  turns: number;
  error: string | null;
  ref: number;
}

/** One curve: x (iteration or learner update) against y, in order of x. */
export interface Series {
  axis: 'iteration' | 'update' | 'fraction';
  x: number[];
  y: (number | null)[];
}

/** The curves per iteration (from the labeled batches) and per learner update (from its metrics). */
export const ITERATION_CURVES = {
  regret: 'meanRegret', 'regret-all': 'meanRegretAll', 'designer-reward': 'meanDesignerReward', 'return-hint': 'meanReturnHint',
  'return-no-hint': 'meanReturnNoHint', acceptance: 'acceptance', novelty: 'novelFraction',
} as const;
/** Learner metric name → curve name. The learner reports no KL; the mean importance ratio is its nearest figure. */
export const UPDATE_CURVES: Record<string, string> = {
  loss: 'loss', 'loss.agent': 'loss-agent', 'loss.designer': 'loss-designer', 'entropy.agent': 'entropy-agent', 'entropy.designer': 'entropy-designer',
  'mean.ratio': 'mean-ratio', 'clip.fraction': 'clip-fraction', 'staleness.mean': 'staleness-mean', 'grad.norm': 'grad-norm', 'tokens.per_s': 'learner-tokens-per-s',
};

/** The cluster's state as `spade status` reads it (members, lag, dead letters); absent when reading a run directory. */
export interface ClusterView {
  members: Array<{ hostId: string; roles: string[]; inflight: number; handled: number; failed: number; draining: boolean; ageSec: number }>;
  consumers: Array<{ stream: string; name: string; pending: number; ackPending: number; redelivered: number }>;
  deadLetters: number;
  policyVersion: number | null;
}

export interface Overview {
  source: string;
  live: boolean;
  figures: Record<string, number | string | null>;
  rejectedByStage: Record<string, number>;
  /** Where the hosts' CPU seconds went (actors/coordinator/run-profile.ts); null before a host published its profile. */
  profile: ProfileSummary | null;
  curves: Record<string, Series>;
  envs: EnvRow[];
  cluster: ClusterView | null;
}

const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

export class RunModel {
  readonly stats: RunStats;
  private readonly rows = new Map<string, EnvRow>();
  private readonly texts = new Map<string, EnvText>();
  private readonly episodesOf = new Map<string, EpisodeRef[]>();
  private readonly episodeIndex = new Map<string, EpisodeRef>();
  private readonly updates = new Map<string, Map<number, number>>();
  private readonly children = new Map<string, Set<string>>();
  private maxIteration = -1;
  cluster: ClusterView | null = null;
  /** Set when the run's figures come from its metrics.jsonl instead of the events (a finished run read from disk). */
  private finalLine: Record<string, unknown> | null = null;
  private iterationLines = new Map<number, Record<string, number | null>>();

  constructor(readonly source: string, readonly designsPerIteration = Infinity, now = Date.now(), private readonly novelty?: { accept(envId: string, code: string): NoveltyScore }) {
    this.stats = emptyStats(now);
  }

  accepted(a: { envId: string; iteration: number; name: string; family: string; doc?: string | null; parents: string[]; novelty?: NoveltyScore | null }, text: EnvText): void {
    if (this.rows.has(a.envId)) return;
    onAccepted(this.stats, a.iteration);
    let nov = a.novelty ?? null;
    if (nov === null && this.novelty) nov = this.novelty.accept(a.envId, text.code);
    if (nov) onNovelty(this.stats, a.iteration, nov);
    this.addRow({
      envId: a.envId, iteration: a.iteration, status: 'accepted', name: a.name, family: a.family, stage: null, reason: null, doc: a.doc ?? null, parents: a.parents,
      children: [], regret: null, returnHint: null, returnNoHint: null, feasible: null, designerReward: null, novel: nov?.novel ?? null, libraryCopyOf: nov?.libraryCopyOf ?? null, episodes: 0,
    }, text);
  }

  rejected(r: { envId: string; iteration: number; stage: string; reason: string; doc?: string | null; parents: string[] }, text: EnvText): void {
    if (this.rows.has(r.envId)) return;
    onRejected(this.stats, r.iteration, r.stage);
    this.addRow({
      envId: r.envId, iteration: r.iteration, status: 'rejected', name: nameOf(text.code), family: '—', stage: r.stage, reason: r.reason, doc: r.doc ?? null, parents: r.parents,
      children: [], regret: null, returnHint: null, returnNoHint: null, feasible: null, designerReward: null, novel: null, libraryCopyOf: null, episodes: 0,
    }, text);
  }

  /** An evaluator's labeled batch: the environment's stats and the advantages its trajectories were trained with. */
  labeled(b: { envId: string; iteration: number; accepted: boolean; regret?: number; returnHint?: number; returnNoHint?: number; feasible?: boolean; designerReward: number; trajectories: number }): void {
    this.maxIteration = Math.max(this.maxIteration, b.iteration);
    onLabeled(this.stats, { ...b }, this.designsPerIteration);
    const row = this.rows.get(b.envId);
    if (!row) return;
    row.designerReward = b.designerReward;
    if (b.regret !== undefined) row.regret = b.regret;
    if (b.returnHint !== undefined) row.returnHint = b.returnHint;
    if (b.returnNoHint !== undefined) row.returnNoHint = b.returnNoHint;
    if (b.feasible !== undefined) row.feasible = b.feasible;
  }

  metric(m: { role: string; name: string; value: number; tags?: Record<string, string> }): void {
    onMetric(this.stats, m as never);
    const curve = m.role === 'learner' ? UPDATE_CURVES[m.name] : undefined;
    const u = Number(m.tags?.update);
    if (curve && Number.isInteger(u)) {
      let pts = this.updates.get(curve);
      if (!pts) this.updates.set(curve, (pts = new Map()));
      pts.set(u, m.value);
    }
  }

  policyVersion(v: number): void {
    this.stats.policyVersion = Math.max(this.stats.policyVersion, v);
  }

  episodes(envId: string, eps: EpisodeRef[]): void {
    const list = this.episodesOf.get(envId) ?? [];
    const seen = new Set(list.map((e) => e.trajId));
    for (const e of eps) if (!seen.has(e.trajId)) (list.push(e), this.episodeIndex.set(e.trajId, e));
    this.episodesOf.set(envId, list);
    const row = this.rows.get(envId);
    if (row) row.episodes = list.length;
  }

  /** A finished run's own figures and per-iteration lines (metrics.jsonl), which the report prefers over a refold. */
  metricsLine(line: Record<string, unknown>): void {
    if (line.event === 'iteration' && line.iteration && typeof line.iteration === 'object') {
      const it = line.iteration as Record<string, number | null>;
      if (typeof it.index === 'number') this.iterationLines.set(it.index, it);
    }
    if (line.event === 'final' || line.event === 'stop' || line.event === 'iteration' || line.event === 'tick') this.finalLine = line;
  }

  env(envId: string): { row: EnvRow; text: EnvText; episodes: EpisodeRef[]; parents: EnvRow[]; children: EnvRow[] } | null {
    const row = this.rows.get(envId);
    if (!row) return null;
    const related = (ids: Iterable<string>) => [...ids].map((id) => this.rows.get(id)).filter((r): r is EnvRow => r !== undefined);
    return { row, text: this.texts.get(envId)!, episodes: this.episodesOf.get(envId) ?? [], parents: related(row.parents), children: related(row.children) };
  }

  envIds(): string[] {
    return [...this.rows.keys()];
  }

  episode(trajId: string): EpisodeRef | null {
    return this.episodeIndex.get(trajId) ?? null;
  }

  overview(now: number, live: boolean): Overview {
    const m = summary(this.stats, now);
    const iterations = [...this.stats.perIteration.keys()].sort((a, b) => a - b);
    const perIt = new Map(iterations.map((i) => [i, iterationSummary(this.stats, i) as unknown as Record<string, number | null>]));
    for (const [i, line] of this.iterationLines) perIt.set(i, line); // the coordinator's own lines, where the run wrote them
    const its = [...perIt.keys()].sort((a, b) => a - b);
    const curves: Record<string, Series> = {};
    for (const [name, field] of Object.entries(ITERATION_CURVES))
      curves[name] = { axis: 'iteration', x: its, y: its.map((i) => { const v = perIt.get(i)![field]; return typeof v === 'number' && Number.isFinite(v) ? v : null; }) };
    for (const [name, pts] of this.updates) {
      const xs = [...pts.keys()].sort((a, b) => a - b);
      curves[name] = { axis: 'update', x: xs, y: xs.map((x) => num(pts.get(x)!)) };
    }
    const f = this.finalLine && !live ? (this.finalLine as ReturnType<typeof summary>) : m;
    const done = Number.isFinite(this.designsPerIteration) || this.finalLine ? f.iterationsDone : this.maxIteration + 1;
    const figures: Overview['figures'] = {
      iteration: done, 'iterations-issued': Math.max(f.iterationsIssued, this.maxIteration + 1), 'policy-version': this.cluster?.policyVersion ?? f.policyVersion,
      proposed: f.proposed, accepted: f.accepted, rejected: f.rejected, acceptance: num(f.acceptance ?? NaN),
      regret: num(f.meanRegret ?? NaN), 'regret-all': num(f.meanRegretAll ?? NaN), feasible: f.feasible, 'designer-reward': num(f.meanDesignerReward ?? NaN),
      'return-hint': num(f.meanReturnHint ?? NaN), 'return-no-hint': num(f.meanReturnNoHint ?? NaN),
      novelty: num(f.novelty?.novelFraction ?? NaN), 'library-copies': f.novelty?.libraryCopies ?? 0,
      trajectories: f.trajectories, throughput: num(f.trajectoriesPerSec), 'elapsed-sec': f.elapsedSec,
      'learner-updates': f.learner.updates, loss: num(f.learner.loss), 'staleness-mean': num(f.learner.stalenessMean), 'staleness-max': f.learner.stalenessMax,
      dropped: f.learner.dropped, 'policy-tokens': f.tokens.total,
      members: this.cluster ? this.cluster.members.length : null,
      'consumer-lag': this.cluster ? this.cluster.consumers.reduce((a, c) => a + c.pending, 0) : null,
      'dead-letters': this.cluster ? this.cluster.deadLetters : null,
    };
    return { source: this.source, live, figures, rejectedByStage: f.rejectedByStage, profile: f.profile ?? null, curves, envs: [...this.rows.values()], cluster: this.cluster };
  }

  private addRow(row: EnvRow, text: EnvText): void {
    this.rows.set(row.envId, row);
    this.texts.set(row.envId, text);
    this.maxIteration = Math.max(this.maxIteration, row.iteration);
    row.children = [...(this.children.get(row.envId) ?? [])];
    for (const p of row.parents) {
      let set = this.children.get(p);
      if (!set) this.children.set(p, (set = new Set()));
      set.add(row.envId);
      const parent = this.rows.get(p);
      if (parent && !parent.children.includes(row.envId)) parent.children.push(row.envId);
    }
  }
}

/** The `name` of a module's spec, read from its text (a rejected module may not even parse). */
export function nameOf(code: string): string {
  return /name\s*:\s*["'`]([^"'`]{1,64})["'`]/.exec(code)?.[1] ?? '—';
}
