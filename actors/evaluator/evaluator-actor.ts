// The evaluator actor: turns each played environment (TrajectoryGroup) and each rejected one (EnvRejected) into
// a LabeledBatch for the learner, updates the environment's memory entry, and publishes per-environment metrics.
import type { Actor, ActorEnv, ActorOutput, HandlerContext } from '../../runtime/actor.js';
import { Metric } from '../../runtime/message-types.js';
import { SUBJECTS } from '../../runtime/subjects.js';
import { consumerFor } from '../../runtime/topology-decls.js';
import { loopOptionsOf } from '../loop/options.js';
import { MemoryStore, newMemoryEntry, type MemoryStats } from '../loop/memory/index.js';
import { EnvRejected, LabeledBatch, TrajectoryGroup, type AcceptedEnv, type EnvRejectedBody, type LabeledBatchBody, type TrajectoryGroupBody } from '../loop/messages.js';
import { BaselineStore } from './baseline-store.js';
import { CopyDetector, type CopyIndex } from './copies.js';
import { rejectedReward } from './designer-reward.js';
import { labelAccepted, labelRejected } from './label.js';
import { validateEvaluatorOptions, type EvaluatorOptions, type ResolvedEvaluatorOptions } from './options.js';
import { scoreEpisodes, type EnvScore } from './score.js';

/** The LabeledBatch's Nats-Msg-Id: one batch per environment, so a retried evaluation is deduplicated by the stream. */
export const labeledMsgId = (envId: string): string => `traj.labeled:${envId}`;

function memoryStats(score: EnvScore): MemoryStats | null {
  if (score.regret === undefined) return null;
  return {
    regret: score.regret, returnHint: score.returnHint!, returnNoHint: score.returnNoHint!, feasible: score.feasible,
    solveRateHint: score.solveRateHint, solveRateNoHint: score.solveRateNoHint,
  };
}

function fallbackEntry(env: AcceptedEnv) {
  return newMemoryEntry({
    envId: env.envId, name: env.spec.name, description: env.spec.description, family: env.family, codeHash: env.codeHash,
    docId: env.doc?.id, parents: env.parents, iteration: env.iteration, source: env.designer ? 'designer' : 'library',
  });
}

/**
 * `noHintRegret` defaults to the config's `loop.ablations.noHintRegret`; `options` override. `copyIndex` opens the
 * index designed environments are judged copies by (the composition root passes eval's, over the loop's library);
 * without one, no designed environment is a copy.
 */
export function createEvaluatorActor(env: ActorEnv, options: EvaluatorOptions = {}, copyIndex?: () => CopyIndex | Promise<CopyIndex>): Actor<TrajectoryGroupBody | EnvRejectedBody> {
  const o: ResolvedEvaluatorOptions = validateEvaluatorOptions({ noHintRegret: loopOptionsOf(env.config).ablations.noHintRegret, ...options });
  const baseline = new BaselineStore(env.conn.kvm, o);
  // Copies of the library (what the base designer was warm-started to reproduce) or of earlier accepted ones.
  const copies = copyIndex ? new CopyDetector(copyIndex) : null;
  let memory: Promise<MemoryStore> | null = null;
  const openMemory = (): Promise<MemoryStore> => (memory ??= MemoryStore.open(env.conn, env.log).catch((err: unknown) => ((memory = null), Promise.reject(err))));

  const metrics = (batch: LabeledBatchBody, extra: Record<string, number>): ActorOutput[] => {
    const values: Record<string, number | undefined> = {
      'designer.reward': batch.designerReward, regret: batch.regret, 'return.hint': batch.returnHint, 'return.no_hint': batch.returnNoHint,
      feasible: batch.feasible === undefined ? undefined : Number(batch.feasible), accepted: Number(batch.accepted), ...extra,
    };
    const tags = { envId: batch.envId, iteration: String(batch.iteration), ...(batch.replayOf !== undefined ? { replayOf: batch.replayOf } : {}) };
    return Object.entries(values).flatMap(([name, value]) =>
      value === undefined ? [] : [{
        subject: SUBJECTS.metrics('evaluator'), type: Metric, msgId: `metric:evaluator:${batch.envId}:${name}`,
        body: { role: 'evaluator', host: env.hostId, ts: Date.now(), name, value, tags },
      }],
    );
  };
  const outputs = (batch: LabeledBatchBody, extra: Record<string, number>): ActorOutput[] => [
    { subject: SUBJECTS.trajLabeled, type: LabeledBatch, body: batch, msgId: labeledMsgId(batch.envId) },
    ...metrics(batch, extra),
  ];

  return {
    role: 'evaluator',
    input: { consumer: consumerFor('evaluator', SUBJECTS.trajRaw), type: TrajectoryGroup },
    extraInputs: [{ consumer: consumerFor('evaluator', SUBJECTS.envRejected), type: EnvRejected }],
    async handle(input, ctx: HandlerContext) {
      if (ctx.messageType === EnvRejected.type) {
        const rej = input as EnvRejectedBody;
        const penalty = rejectedReward(rej.stage, o);
        const { advantage } = await baseline.step(rej.envId, penalty);
        return outputs(labelRejected(rej, penalty, advantage), {});
      }
      const group = input as TrajectoryGroupBody;
      // Only designed environments can be copies: the fixed-environment baseline plays the library on purpose.
      const copyOf = group.env.designer && copies ? await copies.copyOf({ envId: group.env.envId, name: group.env.spec.name, code: group.env.code }) : null;
      const score = scoreEpisodes(group.episodes, o, { oracleMean: group.env.validation.oracleMean, copyOf });
      // Library environments (no designer sample) do not move the designer's baseline.
      const designerAdvantage = group.env.designer ? (await baseline.step(group.env.envId, score.designerReward)).advantage : 0;
      const batch = labelAccepted(group, score, designerAdvantage, o);
      const stats = memoryStats(score);
      // The memory is written before the batch is published: a crash in between redoes both, and the memory only
      // counts one more evaluation. A copy keeps no entry of its own: the designer's is removed, so the memory
      // (and the designer's prompt) holds each environment once.
      // A replay's evaluation is one more of the environment it replays, so the designer's memory sees its latest
      // scores; it creates no entry (one the memory dropped, as a copy or under another envId, stays dropped).
      if (copyOf !== null) await (await openMemory()).remove(group.env.envId);
      else if (stats && group.env.replayOf !== undefined) await (await openMemory()).recordEvaluation(group.env.replayOf, stats);
      else if (stats) await (await openMemory()).recordEvaluation(group.env.envId, stats, fallbackEntry(group.env));
      return outputs(batch, {
        faulted: score.faulted, episodes: group.episodes.length, learnability: score.learnability,
        ...(group.env.designer ? { copy: Number(copyOf !== null) } : {}),
      });
    },
    async stop() {
      if (memory) await (await memory.catch(() => null))?.close();
    },
  };
}
