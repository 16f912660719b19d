// The learner as a host actor: no handler; start() builds the Learner (resuming from <run.dir>/learner) and runs its
// own consume loop on the learner's durable consumer, stop() drains it with a final checkpoint. A lock in KV keeps
// one learner active per cluster (it owns the weights and the version); others stand by.
import { join, resolve } from 'node:path';
import type { Actor } from '../../runtime/actor.js';
import { loopOptionsOf } from '../loop-options.js';
import { LearnerLock } from './learner-lock.js';
import { Learner } from './learner.js';
import { learnerModelFrom } from './learner-model.js';
import { pipelineWorkInFlight } from './work-in-flight.js';
import { validateLearnerOptions, type LearnerOptions } from './options.js';
import { BUCKETS } from '../../runtime/subjects.js';

/**
 * Defaults from the cluster config: the model of `loop.policy`, η = `run.maxStaleness`, iteration-aligned updates of
 * `run.designsPerIteration` batches; `options` override them. Only the host holding the learner lock trains; another
 * stands by (start() returns at once) and takes over when the lock is released or expires.
 */
export function createLearnerActor(options: LearnerOptions = {}): Actor & { learner(): Learner | null } {
  let learner: Learner | null = null;
  let lock: LearnerLock | null = null;
  let standby: Promise<void> | null = null;
  /** A learner being restarted after a failed update (stop() waits for it, then stops it). */
  let restarting: Promise<void> | null = null;
  const ac = new AbortController();
  return {
    role: 'learner',
    learner: () => learner,
    async start(env) {
      // One update per iteration, as the coordinator counts versions; a lost batch (nothing left in the pipeline that
      // could produce it) holds it up for 10 s of quiet.
      const run = { eta: env.config.run.maxStaleness, iterationBatches: env.config.run.designsPerIteration, flushAfterMs: 10_000 };
      const o: LearnerOptions = { ...learnerModelFrom(loopOptionsOf(env.config).policy), ...run, ...options };
      // An explicit model shape in the learner's own options means fresh weights of that shape, not the policy's checkpoint.
      if (options.model !== undefined && options.initCheckpoint === undefined) delete o.initCheckpoint;
      const { lockTtlMs: ttl, maxRestarts } = validateLearnerOptions(o);
      const kv = await env.conn.kvm.open(BUCKETS.policy);
      const onLost = (): void => void learner?.crash();
      let restarts = 0;
      const create = async (): Promise<void> => {
        learner = await Learner.create({
          conn: env.conn, hostId: env.hostId, ackWaitMs: env.config.delivery.ackWaitMs, maxDeliver: env.config.delivery.maxDeliver,
          threads: env.roleConfig.threads, log: env.log, stateDir: resolve(o.stateDir ?? join(env.config.run.dir || 'runs/default', 'learner')),
          onFailure, workInFlight: pipelineWorkInFlight(env.conn),
        }, o);
        await learner.start();
      };
      // A failed update leaves the weights half-updated: the learner stopped like a crash (nothing more acked), so a
      // new one resumes from the last checkpoint and the unacked trajectories come back to it after ack_wait.
      const onFailure = (err: Error): void => {
        if (ac.signal.aborted) return;
        if (restarts >= maxRestarts) {
          env.log(`learner: update failed after ${restarts} restart(s), stopping the host: ${err.message}`);
          env.requestShutdown(`the learner failed ${restarts + 1} time(s) (loop.learner.maxRestarts = ${maxRestarts}): ${err.message}`);
          return;
        }
        restarts++;
        env.log(`learner: update failed (${err.message}); restarting from the last checkpoint (${restarts} of ${maxRestarts})`);
        restarting = create().catch((e: Error) => env.requestShutdown(`the learner could not restart: ${e.message}`));
      };
      const launch = async (l: LearnerLock): Promise<void> => {
        lock = l;
        await create();
      };
      // The common case (lock free) starts in line, so a bad checkpoint or option fails the host's start.
      const first = await LearnerLock.tryAcquire(kv, env.hostId, ttl, env.log, onLost);
      if ('lock' in first) return launch(first.lock);
      env.log(`learner: ${first.holder} holds the learner lock; this host stands by`);
      standby = LearnerLock.acquire(kv, env.hostId, ttl, ac.signal, env.log, onLost)
        .then(launch)
        .catch((err: Error) => (ac.signal.aborted ? undefined : env.log(`learner: standby failed: ${err.message}`)));
    },
    async stop() {
      ac.abort();
      await standby;
      await restarting;
      await (learner as Learner | null)?.stop();
      await (lock as LearnerLock | null)?.release();
    },
  };
}
