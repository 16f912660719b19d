// Pure fold of the run's events into the stats the live view, metrics.jsonl and tests read (run-summary.ts reads the figures from them).
import type { MetricBody } from '../../runtime/message-types.js';
import { onProfileMetric, type RunProfile } from './run-profile.js';

export interface IterationStats {
  iteration: number;
  proposed: number;
  accepted: number;
  rejected: number;
  labeled: number;
  regretSum: number;
  returnHintSum: number;
  returnNoHintSum: number;
  evaluated: number;
  /** Evaluated environments whose hinted return reached τ, and their regret. */
  feasible: number;
  feasibleRegretSum: number;
  designerRewardSum: number;
  /** Accepted environments scored by the novelty index, and the novel ones among them. */
  scored: number;
  novel: number;
  newStructure: number;
  /** Jobs that replayed an accepted environment (loop.replay) instead of designing one, and their evaluations. */
  replayed: number;
  replayEvaluated: number;
  replayReturnNoHintSum: number;
  /** Policy tokens sampled for this iteration's jobs (the designer's and agent's reports). */
  sampledTokens: number;
  /** Of them, the tokens in its labeled batches (what the learner gets: the evaluator may leave hinted episodes out). */
  labeledTokens: number;
  /** Agent episodes played for this iteration's jobs, hinted ones included (the agent's `episodes` reports). */
  agentEpisodes: number;
}

/** Policy-token compute of the run. Sampled tokens are counted where they are produced: each designer job and agent
 *  group reports the tokens its samples hold (`sample.tokens` metric, deduplicated by the stream per job), hinted
 *  episodes included; trained tokens are the learner's per-update count. The labeled counts are the sampled tokens that
 *  reached a labeled batch (what the learner may train on). */
export interface TokenCounts {
  sampledDesigner: number;
  sampledAgent: number;
  /** Sampled tokens of finished iterations (the budget's cost estimate). */
  sampledDone: number;
  trained: number;
  /** Learner updates whose token count arrived. */
  trainedUpdates: number;
  labeledDesigner: number;
  labeledAgent: number;
}

export interface NoveltyCounts {
  scored: number;
  novel: number;
  /** Of them, environments whose structure (strings and numbers masked) was new too. */
  newStructure: number;
  libraryCopies: number;
  librarySimilaritySum: number;
  acceptedSimilaritySum: number;
}

export interface RunStats {
  startedAt: number;
  iterationsIssued: number;
  iterationsDone: number;
  proposed: number;
  accepted: number;
  rejected: number;
  rejectedByStage: Record<string, number>;
  labeledBatches: number;
  trajectories: number;
  evaluated: number;
  regretSum: number;
  returnHintSum: number;
  returnNoHintSum: number;
  feasible: number;
  feasibleRegretSum: number;
  designerRewardSum: number;
  /** Replays (loop.replay): jobs that played an accepted environment again, and their evaluations. They count in the
   *  trajectories and tokens, not in the designer's figures (proposed, accepted, regret, feasible, evaluated). */
  replayed: number;
  replayEvaluated: number;
  replayReturnNoHintSum: number;
  tokens: TokenCounts;
  /** Agent episodes played (hinted included), as the agent groups report them, and those of finished iterations: the
   *  unit of an episode budget (run.budgetEpisodes), which compares arms at equal agent experience. */
  agentEpisodes: number;
  agentEpisodesDone: number;
  /** The latest iterations' sampled tokens and the latest updates' trained tokens (the budget's cost estimate: an
   *  iteration's cost drifts as the designer starts passing validation and the advantages stop being all zero). */
  recentCost: { sampled: number[]; trained: number[]; episodes: number[] };
  novelty: NoveltyCounts;
  /** Accepted environments with grounding counts (designer.grounding), and the sums of their two counts. */
  grounding: { scored: number; docWordsSum: number; controlWordsSum: number };
  policyVersion: number;
  /** From learner metrics when present. */
  /** Each host's latest profile reading (run-profile.ts). */
  profile: RunProfile;
  learner: { updates: number; applied: number; lastReportedUpdate: number; stalenessMean: number; stalenessMax: number; stalenessP99: number; stalenessSamples: number; dropped: number; busyFraction: number; loss: number };
  perIteration: Map<number, IterationStats>;
}

export function emptyStats(now: number): RunStats {
  return {
    startedAt: now,
    iterationsIssued: 0,
    iterationsDone: 0,
    proposed: 0,
    accepted: 0,
    rejected: 0,
    rejectedByStage: {},
    labeledBatches: 0,
    trajectories: 0,
    evaluated: 0,
    regretSum: 0,
    returnHintSum: 0,
    returnNoHintSum: 0,
    feasible: 0,
    feasibleRegretSum: 0,
    designerRewardSum: 0,
    replayed: 0,
    replayEvaluated: 0,
    replayReturnNoHintSum: 0,
    tokens: { sampledDesigner: 0, sampledAgent: 0, sampledDone: 0, trained: 0, trainedUpdates: 0, labeledDesigner: 0, labeledAgent: 0 },
    agentEpisodes: 0,
    agentEpisodesDone: 0,
    recentCost: { sampled: [], trained: [], episodes: [] },
    novelty: { scored: 0, novel: 0, newStructure: 0, libraryCopies: 0, librarySimilaritySum: 0, acceptedSimilaritySum: 0 },
    grounding: { scored: 0, docWordsSum: 0, controlWordsSum: 0 },
    policyVersion: 0,
    profile: {},
    learner: { updates: 0, applied: 0, lastReportedUpdate: 0, stalenessMean: 0, stalenessMax: 0, stalenessP99: 0, stalenessSamples: 0, dropped: 0, busyFraction: 0, loss: 0 },
    perIteration: new Map(),
  };
}

export function iterationStats(s: RunStats, i: number): IterationStats {
  let it = s.perIteration.get(i);
  if (!it) {
    it = {
      iteration: i, proposed: 0, accepted: 0, rejected: 0, labeled: 0, regretSum: 0, returnHintSum: 0, returnNoHintSum: 0, evaluated: 0,
      feasible: 0, feasibleRegretSum: 0, designerRewardSum: 0, scored: 0, novel: 0, newStructure: 0,
      replayed: 0, replayEvaluated: 0, replayReturnNoHintSum: 0, sampledTokens: 0, labeledTokens: 0, agentEpisodes: 0,
    };
    s.perIteration.set(i, it);
  }
  return it;
}

export function onAccepted(s: RunStats, iteration: number, grounding?: { docWords: number; controlWords: number }): void {
  s.proposed++;
  s.accepted++;
  if (grounding) (s.grounding.scored++, s.grounding.docWordsSum += grounding.docWords, s.grounding.controlWordsSum += grounding.controlWords);
  const it = iterationStats(s, iteration);
  it.proposed++;
  it.accepted++;
}

/** A job replayed an accepted environment (its env.accepted carries replayOf): not a design. */
export function onReplayed(s: RunStats, iteration: number): void {
  s.replayed++;
  iterationStats(s, iteration).replayed++;
}

export function onRejected(s: RunStats, iteration: number, stage: string): void {
  s.proposed++;
  s.rejected++;
  s.rejectedByStage[stage] = (s.rejectedByStage[stage] ?? 0) + 1;
  const it = iterationStats(s, iteration);
  it.proposed++;
  it.rejected++;
}

export interface LabeledSummary {
  iteration: number;
  accepted: boolean;
  regret?: number;
  returnHint?: number;
  returnNoHint?: number;
  feasible?: boolean;
  designerReward?: number;
  /** Set when the batch evaluated a replay: its returns are the agent's, not a new design's. */
  replayOf?: string;
  trajectories: number;
  /** Tokens sampled by each role in this batch's samples. */
  labeledDesigner?: number;
  labeledAgent?: number;
}

/** The novelty of one accepted environment (eval/novelty.ts NoveltyReport, the fields the stats use). */
export interface NoveltyScore {
  novel: boolean;
  libraryCopyOf: string | null;
  maxLibrarySimilarity: number;
  maxAcceptedSimilarity: number;
  newStructure: boolean;
  maxLibraryStructure: number;
  maxAcceptedStructure: number;
}

export function onNovelty(s: RunStats, iteration: number, r: NoveltyScore): void {
  const n = s.novelty;
  n.scored++;
  if (r.novel) n.novel++;
  if (r.newStructure) n.newStructure++;
  if (r.libraryCopyOf !== null) n.libraryCopies++;
  n.librarySimilaritySum += r.maxLibrarySimilarity;
  n.acceptedSimilaritySum += r.maxAcceptedSimilarity;
  const it = iterationStats(s, iteration);
  it.scored++;
  if (r.novel) it.novel++;
  if (r.newStructure) it.newStructure++;
}

/** Returns true when this batch completed its iteration (all its design jobs labeled). */
export function onLabeled(s: RunStats, b: LabeledSummary, designsPerIteration: number): boolean {
  s.labeledBatches++;
  s.trajectories += b.trajectories;
  const it = iterationStats(s, b.iteration);
  it.labeled++;
  s.tokens.labeledDesigner += b.labeledDesigner ?? 0;
  s.tokens.labeledAgent += b.labeledAgent ?? 0;
  it.labeledTokens += (b.labeledDesigner ?? 0) + (b.labeledAgent ?? 0);
  s.designerRewardSum += b.designerReward ?? 0;
  it.designerRewardSum += b.designerReward ?? 0;
  if (b.replayOf !== undefined) {
    if (b.returnNoHint !== undefined) (s.replayEvaluated++, it.replayEvaluated++, s.replayReturnNoHintSum += b.returnNoHint, it.replayReturnNoHintSum += b.returnNoHint);
  } else if (b.accepted && b.regret !== undefined && b.feasible === true) {
    s.feasible++;
    it.feasible++;
    s.feasibleRegretSum += b.regret;
    it.feasibleRegretSum += b.regret;
  }
  if (b.replayOf === undefined && b.accepted && b.regret !== undefined) {
    s.evaluated++;
    it.evaluated++;
    s.regretSum += b.regret;
    it.regretSum += b.regret;
    s.returnHintSum += b.returnHint ?? 0;
    it.returnHintSum += b.returnHint ?? 0;
    s.returnNoHintSum += b.returnNoHint ?? 0;
    it.returnNoHintSum += b.returnNoHint ?? 0;
  }
  if (it.labeled === designsPerIteration) {
    s.iterationsDone++;
    s.tokens.sampledDone += it.sampledTokens;
    keepRecent(s.recentCost.sampled, it.sampledTokens);
    s.agentEpisodesDone += it.agentEpisodes;
    keepRecent(s.recentCost.episodes, it.agentEpisodes);
    return true;
  }
  return false;
}

/** Iterations (and updates) the cost estimate looks back over. */
export const RECENT_COST_WINDOW = 4;

function keepRecent(xs: number[], x: number): void {
  xs.push(x);
  if (xs.length > RECENT_COST_WINDOW) xs.shift();
}

export function onMetric(s: RunStats, m: MetricBody): void {
  if (onProfileMetric(s.profile, m)) return;
  if (m.name === 'sample.tokens' && (m.role === 'designer' || m.role === 'agent')) {
    if (m.role === 'designer') s.tokens.sampledDesigner += m.value;
    else s.tokens.sampledAgent += m.value;
    const i = Number(m.tags?.iteration);
    if (Number.isInteger(i) && i >= 0) iterationStats(s, i).sampledTokens += m.value;
    return;
  }
  if (m.name === 'episodes' && m.role === 'agent') {
    s.agentEpisodes += m.value;
    const i = Number(m.tags?.iteration);
    if (Number.isInteger(i) && i >= 0) iterationStats(s, i).agentEpisodes += m.value;
    return;
  }
  if (m.role !== 'learner') return;
  const l = s.learner;
  // An update's metrics arrive in any order: the highest update any of them names, so its token count can be awaited.
  const u = Number(m.tags?.update);
  if (Number.isInteger(u)) l.lastReportedUpdate = Math.max(l.lastReportedUpdate, u);
  // Each update's own count (the coordinator reads the metrics stream from its start, so a resumed run counts again).
  if (m.name === 'tokens') {
    s.tokens.trained += m.value;
    s.tokens.trainedUpdates++;
    keepRecent(s.recentCost.trained, m.value);
  } else if (m.name === 'updates') l.updates = m.value;
  // The learner reports each update's mean; the run's is the mean over updates.
  else if (m.name === 'staleness.mean') l.stalenessMean += (m.value - l.stalenessMean) / ++l.stalenessSamples;
  else if (m.name === 'staleness.max') l.stalenessMax = Math.max(l.stalenessMax, m.value);
  else if (m.name === 'staleness.p99') l.stalenessP99 = m.value;
  else if (m.name === 'dropped') l.dropped = m.value;
  else if (m.name === 'applied') l.applied = m.value;
  else if (m.name === 'busy.fraction') l.busyFraction = m.value;
  else if (m.name === 'loss') l.loss = m.value;
}
