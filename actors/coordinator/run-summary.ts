// The figures a run reports, read from its folded stats (run-stats.ts): one iteration's line and the run's summary
// record of metrics.jsonl, the agent's share of the sampled tokens, and the tokens spent against a budget. Pure.
import { profileSummary } from './run-profile.js';
import { iterationStats, type RunStats, type TokenCounts } from './run-stats.js';

const mean = (sum: number, n: number) => (n > 0 ? sum / n : NaN);

/** The agent's share of the sampled policy tokens (NaN before any): what replays and several rollouts per design raise. */
export function agentShare(t: Pick<TokenCounts, 'sampledDesigner' | 'sampledAgent'>): number {
  return mean(t.sampledAgent, t.sampledDesigner + t.sampledAgent);
}

/** Policy tokens spent so far: sampled by both roles plus trained. */
export function spentTokens(s: RunStats): number {
  return s.tokens.sampledDesigner + s.tokens.sampledAgent + s.tokens.trained;
}

/** The figures of one iteration, for its metrics.jsonl line. */
export function iterationSummary(s: RunStats, i: number) {
  const it = iterationStats(s, i);
  return {
    index: i, proposed: it.proposed, accepted: it.accepted, rejected: it.rejected,
    acceptance: mean(it.accepted, it.proposed),
    meanRegret: mean(it.feasibleRegretSum, it.feasible), meanRegretAll: mean(it.regretSum, it.evaluated), feasible: it.feasible, evaluated: it.evaluated,
    meanDesignerReward: mean(it.designerRewardSum, it.labeled),
    meanReturnHint: mean(it.returnHintSum, it.evaluated), meanReturnNoHint: mean(it.returnNoHintSum, it.evaluated),
    novelFraction: mean(it.novel, it.scored), newStructureFraction: mean(it.newStructure, it.scored), sampledTokens: it.sampledTokens, labeledTokens: it.labeledTokens, agentEpisodes: it.agentEpisodes,
    replayed: it.replayed, meanReplayReturnNoHint: mean(it.replayReturnNoHintSum, it.replayEvaluated),
  };
}

/** One flat summary record (a line of metrics.jsonl, the final JSON of a run). */
export function summary(s: RunStats, now: number) {
  const secs = Math.max(1e-9, (now - s.startedAt) / 1000);
  return {
    ts: now,
    elapsedSec: Number(secs.toFixed(1)),
    iterationsIssued: s.iterationsIssued,
    iterationsDone: s.iterationsDone,
    proposed: s.proposed,
    accepted: s.accepted,
    rejected: s.rejected,
    rejectedByStage: s.rejectedByStage,
    // Regret means something only where the hinted agent can solve the environment: the headline is the feasible mean.
    meanRegret: mean(s.feasibleRegretSum, s.feasible),
    meanRegretAll: mean(s.regretSum, s.evaluated),
    feasible: s.feasible,
    evaluated: s.evaluated,
    acceptance: mean(s.accepted, s.proposed),
    meanDesignerReward: mean(s.designerRewardSum, s.labeledBatches),
    meanReturnHint: mean(s.returnHintSum, s.evaluated),
    meanReturnNoHint: mean(s.returnNoHintSum, s.evaluated),
    policyVersion: s.policyVersion,
    learner: s.learner,
    profile: profileSummary(s.profile),
    replayed: s.replayed,
    meanReplayReturnNoHint: mean(s.replayReturnNoHintSum, s.replayEvaluated),
    tokens: { ...s.tokens, sampled: s.tokens.sampledDesigner + s.tokens.sampledAgent, total: spentTokens(s), agentShare: agentShare(s.tokens) },
    novelty: {
      scored: s.novelty.scored, novel: s.novelty.novel, libraryCopies: s.novelty.libraryCopies, novelFraction: mean(s.novelty.novel, s.novelty.scored),
      newStructure: s.novelty.newStructure, newStructureFraction: mean(s.novelty.newStructure, s.novelty.scored),
      meanLibrarySimilarity: mean(s.novelty.librarySimilaritySum, s.novelty.scored), meanAcceptedSimilarity: mean(s.novelty.acceptedSimilaritySum, s.novelty.scored),
    },
    grounding: { scored: s.grounding.scored, meanDocWords: mean(s.grounding.docWordsSum, s.grounding.scored), meanControlWords: mean(s.grounding.controlWordsSum, s.grounding.scored) },
    trajectories: s.trajectories,
    trajectoriesPerSec: s.trajectories / secs,
    agentEpisodes: s.agentEpisodes,
    agentEpisodesPerSec: s.agentEpisodes / secs,
  };
}
