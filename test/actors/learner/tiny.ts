// A tiny decoder for learner tests (byte tokenizer vocab, so checkpoints load), helpers to build labeled batches, and
// the learner and its trainer set up for tests.
import { packFloats, packInts } from '../../../actors/loop/packed.js';
import { LabeledBatch, type Labeled } from '../../../actors/loop/messages.js';
import type { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Test } from 'tap';
import { PolicyTrainer, createLearnerActor } from '../../../actors/learner/index.js';
import type { LearnerActorHooks } from '../../../actors/learner/learner-actor.js';
import type { LearnerEffect, LearnerLogicOptions } from '../../../actors/learner/learner-logic.js';
import type { LearnerStats } from '../../../actors/learner/learner-metrics.js';
import { mergeLearnerOptions, type LearnerOptions } from '../../../actors/learner/options.js';
import type { UpdateStats } from '../../../actors/learner/policy-trainer.js';
import type { ClusterConfig } from '../../../runtime/config-schema.js';
import type { Connection } from '../../../runtime/connection.js';
import { ActorHost } from '../../../runtime/host.js';
import { encode } from '../../../runtime/messages.js';
import { SUBJECTS } from '../../../runtime/subjects.js';
import { AdamW, initParameters, type DecoderConfig, type ModelSession } from '../../../model/index.js';
import { FAST_DELIVERY, connected, natsServer, tempDir, testConfig } from '../../helpers/nats.js';

export const TINY: DecoderConfig = { layers: 1, width: 16, heads: 2, contextLength: 32, vocab: 272, ffnHidden: 32 };

/** A one-sample agent trajectory with behaviour log-probs `lp` (default −3 each) sampled at `version`. */
export function traj(trajId: string, tokens: number[], advantage: number, version: number, lp?: number[]): Labeled {
  return {
    trajId, role: 'agent', advantage, reward: advantage,
    samples: [{
      promptTokens: packInts([1, 40, 41]), tokens: packInts(tokens), logprobs: packFloats(lp ?? tokens.map(() => -3)),
      versions: packInts(tokens.map(() => version)), text: '', finishReason: 'stop',
    }],
  };
}

/** A trainer of the tiny model from seed-7 weights: one epoch, AdamW at a constant 1e-2 without weight decay. */
export function tinyTrainer(session: ModelSession, microBatchTokens: number): PolicyTrainer {
  const opt = new AdamW({ schedule: { peakLr: 1e-2, warmupSteps: 0, decaySteps: 10, minLr: 1e-2 }, weightDecay: 0 });
  return new PolicyTrainer(session, initParameters(TINY, 7), opt, { kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens });
}

/** Publishes one LabeledBatch of `iteration` holding `trajectories` (msgId from the batch id, as the evaluator does). */
export async function publishBatch(conn: Connection, batchId: string, trajectories: Labeled[], iteration = 0): Promise<void> {
  const body = { batchId, envId: batchId, iteration, accepted: true, designerReward: 0, trajectories };
  await conn.js.publish(SUBJECTS.trajLabeled, encode(LabeledBatch, body), { msgID: `traj.labeled:${batchId}` });
}

/** Learner options for tests: the tiny model, fresh weights, small minibatches, no waiting. */
export function learnerOptions(extra: LearnerOptions = {}): LearnerOptions {
  return mergeLearnerOptions({
    model: TINY, init: { tokenizer: 'bytes' }, batching: { minibatchTrajectories: 4, flushAfterMs: 200 }, host: { threads: 1 },
    adamw: { schedule: { peakLr: 1e-3, warmupSteps: 0, decaySteps: 10, minLr: 1e-3 } },
  }, extra);
}

/** Resolves once `cond()` holds, checked now and after every `event` of `emitter`: waiting without polling. */
export function when(emitter: EventEmitter, event: string, cond: () => boolean | Promise<boolean>): Promise<void> {
  return new Promise((resolve, reject) => {
    let busy = false, again = false, done = false;
    const check = async (): Promise<void> => {
      if (busy) return void (again = true);
      busy = true;
      try {
        do {
          again = false;
          if (!done && (await cond())) {
            done = true;
            emitter.off(event, check);
            resolve();
          }
        } while (again && !done);
      } catch (err) {
        emitter.off(event, check);
        reject(err);
      } finally {
        busy = false;
      }
    };
    emitter.on(event, check);
    void check();
  });
}

/** The learner role under its own actor host on `conn` (iteration size mode unless `options` say otherwise). */
export async function hostedLearner(t: Test, conn: Connection, config: ClusterConfig, options: LearnerOptions, hooks: LearnerActorHooks = {}, hostId = 'l') {
  const actor = createLearnerActor(mergeLearnerOptions({ batching: { iterationBatches: 0 } }, options), hooks);
  const host = new ActorHost({ conn, config, hostId, log: () => undefined });
  await host.start([() => actor], ['learner']);
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => (stopping ??= host.stop());
  t.teardown(stop);
  return { actor, host, stop, learner: () => actor.learner()! };
}

/**
 * The learner role (tiny `learnerOptions` and `options`) under host 'h' on a fresh server with fast redelivery, its
 * state in a fresh directory. The host's shutdown requests are recorded; `shutdownRequested` resolves on the first.
 */
export async function learnerOnFreshServer(t: Test, options: LearnerOptions) {
  const server = await natsServer(t);
  const config = await testConfig([server.url], FAST_DELIVERY);
  const conn = await connected(t, config);
  const stateDir = join(tempDir(t, 'spade-run-'), 'learner');
  const actor = createLearnerActor(learnerOptions(mergeLearnerOptions({ checkpoints: { dir: stateDir } }, options)));
  const shutdowns: string[] = [];
  let requested!: () => void;
  const shutdownRequested = new Promise<void>((resolve) => (requested = resolve));
  const host = new ActorHost({ conn, config, hostId: 'h', log: () => undefined, onShutdownRequest: (r) => (shutdowns.push(r), requested()) });
  await host.start([() => actor], ['learner']);
  t.teardown(() => host.stop());
  return { conn, actor, stateDir, shutdowns, shutdownRequested };
}

/** Counters of a fresh learner at version `version`, for tests of the pure learner logic. */
export function freshStats(version = 0): LearnerStats {
  return {
    version, updates: 0, applied: 0, dropped: 0, lastStreamSeq: 0, origin: 'fresh', droppedStale: 0, droppedInvalid: 0, skipped: 0,
    duplicates: 0, trainedTokens: 0, computeMs: 0, startedAt: 0, stalenessMax: 0, stalenessHistogram: [], published: [],
  };
}

/** Options of the pure learner logic over the tiny model. */
export function logicOptions(extra: Partial<LearnerLogicOptions> = {}): LearnerLogicOptions {
  return {
    model: TINY as { contextLength: number; vocab: number }, minibatchTrajectories: 2, minibatchTokens: 1e9, flushAfterMs: 150, iterationBatches: 0,
    eta: 2, skipZeroAdvantage: true, publishEvery: 1, checkpointEvery: 1, trainOnStop: true, countsWorkInFlight: false, ...extra,
  };
}

/** Batch `id` of iteration 0 for the pure learner logic: trajectories `<id>-p` (2 tokens, A = 1) and `<id>-q` (1 token, A = −1). */
export const logicBatch = (id: string) => ({ batchId: id, iteration: 0, trajectories: [traj(`${id}-p`, [50, 51], 1, 0), traj(`${id}-q`, [52], -1, 0)] });

/** The types of the logic's effects, with the message where there is one ('ack:m0'), to compare lists of effects. */
export const effectKinds = (fx: LearnerEffect<string>[]): string[] => fx.map((f) => ('ref' in f ? `${f.type}:${f.ref}` : f.type));

/** The report of an update the logic is told about (what a trainer would return). */
export const TRAINED: UpdateStats = {
  rows: 2, tokens: 4, processedTokens: 10, loss: 0.5, clipFraction: 0, tisFraction: 0, meanRatio: 1, gradNorm: 1, lr: 1e-3, optimizerStep: 1, computeMs: 3,
  byRole: { designer: { tokens: 0, norm: 0, loss: 0, entropy: NaN }, agent: { tokens: 4, norm: 4, loss: 0.5, entropy: 2 } },
};
