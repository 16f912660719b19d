// Builds the evaluator's output for one environment: a LabeledBatch with the designer's sample and the agent's
// training episodes, each with its advantage. Pure; the designer advantage comes from the baseline step.
import type { EnvRejectedBody, Labeled, LabeledBatchBody, TrajectoryGroupBody } from '../loop/messages.js';
import type { ResolvedEvaluatorOptions } from './options.js';
import { agentAdvantages, type EnvScore } from './score.js';

/** The designer trajectory's id: one designer sample per environment. */
export const designerTrajId = (envId: string): string => `${envId}/designer`;

export function labelAccepted(group: TrajectoryGroupBody, score: EnvScore, designerAdvantage: number, o: ResolvedEvaluatorOptions): LabeledBatchBody {
  const { env } = group;
  const trajectories: Labeled[] = [];
  // Library environments (fixed-environment baseline) have no designer sample to train.
  if (env.designer) trajectories.push({ trajId: designerTrajId(env.envId), role: 'designer', samples: [env.designer], advantage: designerAdvantage, reward: score.designerReward });
  for (const { episode, advantage } of agentAdvantages(group.episodes, o))
    trajectories.push({ trajId: episode.trajId, role: 'agent', samples: episode.turns, advantage, reward: episode.return });
  return {
    batchId: env.envId,
    envId: env.envId,
    iteration: env.iteration,
    accepted: true,
    regret: score.regret,
    returnHint: score.returnHint,
    returnNoHint: score.returnNoHint,
    feasible: score.feasible,
    designerReward: score.designerReward,
    ...(env.replayOf !== undefined ? { replayOf: env.replayOf } : {}),
    trajectories,
  };
}

export function labelRejected(rej: EnvRejectedBody, designerReward: number, designerAdvantage: number): LabeledBatchBody {
  return {
    batchId: rej.envId,
    envId: rej.envId,
    iteration: rej.iteration,
    accepted: false,
    designerReward,
    trajectories: [{ trajId: designerTrajId(rej.envId), role: 'designer', samples: [rej.designer], advantage: designerAdvantage, reward: designerReward }],
  };
}
