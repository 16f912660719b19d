// The learner as a host actor: start() builds the Learner (resuming from <run.dir>/learner) and, once it holds the
// learner lock, has the host pull its durable consumer; handle() holds each labeled batch's message and hands it to
// the learner, whose logic acks it once a checkpoint (or a drop on disk) makes it final. stop() drains the learner
// with a final checkpoint. Its reducer (reducer.ts) says when it trains: a lone learner once it holds the learner
// lock (it owns the weights and the version; other hosts stand by without pulling), a group member at once.
import { EventEmitter } from 'node:events';
import { join, resolve } from 'node:path';
import type { Actor, Pulling } from '../../runtime/actor.js';
import { untilAnswered } from '../../runtime/jetstream-retry.js';
import { supervise, type GiveUp, type Supervisor } from '../../runtime/supervise.js';
import { consumerFor } from '../../runtime/topology-decls.js';
import { loopOptionsOf } from '../loop/options.js';
import { LabeledBatch } from '../loop/messages.js';
import { LearnerStateError, isLearnerDivergedError } from './errors.js';
import type { BatchIn } from './learner-logic.js';
import type { UpdateReport } from './learner-metrics.js';
import { Learner } from './learner.js';
import { learnerModelFrom } from './learner-model.js';
import { pipelineWorkInFlight } from './work-in-flight.js';
import { mergeLearnerOptions, validateLearnerOptions, type LearnerOptions } from './options.js';
import { openReducer, type GradientReducer } from './reducer.js';
import { SUBJECTS } from '../../runtime/subjects.js';

/** Test and benchmark seams: the pipeline counter (default: the real consumers) and a sink for the learner's logs. */
export interface LearnerActorHooks {
  workInFlight?: () => Promise<number>;
  log?: (line: string) => void;
}

/** Emits 'learner' (Learner) whenever a learner starts (first, after a takeover, after a restart) and 'update' (UpdateReport, Learner). */
export type LearnerActor = Actor & { learner(): Learner | null; events: EventEmitter };

/**
 * Defaults from the cluster config: the model of `loop.policy`, η = `run.maxStaleness`, iteration-aligned updates of
 * `run.designsPerIteration` batches; `options` override them. Alone, only the host holding the learner lock trains;
 * another stands by (start() returns at once, nothing is pulled) and takes over when the lock is released or expires.
 * In a learner group (`group.enabled`) every learner host trains.
 */
export function createLearnerActor(options: LearnerOptions = {}, hooks: LearnerActorHooks = {}): LearnerActor {
  let learner: Learner | null = null;
  /** The learner batches go to: null until this host holds the lock; a restart replaces it. */
  let current: Promise<Learner | null> = Promise.resolve(null);
  /** Restarts the learner after a failed update (stop() waits for a restart in progress, then stops the learner). */
  let supervisor: Supervisor | null = null;
  const restartPending = (): boolean => supervisor?.pending ?? false;
  let pulling: Pulling | null = null;
  /** How this host takes part (the lock, or the learner group's membership), kept across restarts of the learner. */
  let reducer: GradientReducer | null = null;
  const ac = new AbortController();
  const events = new EventEmitter();
  return {
    role: 'learner',
    learner: () => learner,
    events,
    async handle(batch: BatchIn, ctx) {
      const held = ctx.hold();
      const l = await current;
      if (l === null) throw new LearnerStateError('no running learner on this host; the batch goes back to the queue', { streamSeq: ctx.streamSeq });
      // A learner that crashed for good takes nothing more, as a crashed process would not: the batch comes back after
      // ack_wait (to the next lock holder) without a failed delivery that would bring it closer to the dead letters.
      if (l.stopped && !restartPending()) {
        held.abandon();
        return [];
      }
      const target = l.stopped ? await current : l; // a restart replaced it meanwhile
      if (target === null || target.stopped) throw new LearnerStateError('the learner is restarting; the batch goes back to the queue', { streamSeq: ctx.streamSeq });
      await target.receive(batch, held);
      return [];
    },
    async start(env) {
      // One update per iteration, as the coordinator counts versions; a lost batch (nothing left in the pipeline that
      // could produce it) holds it up for 10 s of quiet.
      const run: LearnerOptions = { batching: { eta: env.config.run.maxStaleness, iterationBatches: env.config.run.designsPerIteration, flushAfterMs: 10_000 } };
      const o = mergeLearnerOptions(learnerModelFrom(loopOptionsOf(env.config).policy), run, options);
      // An explicit model shape in the learner's own options means fresh weights of that shape, not the policy's checkpoint.
      if (options.model !== undefined && options.init?.checkpoint === undefined) delete o.init?.checkpoint;
      const resolved = validateLearnerOptions(o);
      const { maxRestarts, pullBatch } = resolved.host;
      const { trainOnStop } = resolved.cadence;
      const onLost = (): void => void learner?.crash();
      const r = await openReducer(env.conn, resolved, { hostId: env.hostId, memberTtlMs: env.config.host.memberTtlMs, signal: ac.signal, log: hooks.log ?? env.log, lockLog: env.log, onLost });
      reducer = r;
      const create = async (): Promise<Learner> => {
        const l = await Learner.create({
          conn: env.conn, hostId: env.hostId, threads: env.roleConfig.threads, log: hooks.log ?? env.log,
          stateDir: resolve(o.checkpoints?.dir ?? join(env.config.run.dir || 'runs/default', 'learner')),
          onFailure: (err: Error) => sup.failed(err), workInFlight: hooks.workInFlight ?? pipelineWorkInFlight(env.conn), reducer: r,
        }, o);
        learner = l;
        sup.up();
        l.on('update', (r: UpdateReport) => events.emit('update', r, l));
        // Crashed for good (a lost lock, a test, no restarts left): stop pulling, so the held and undelivered
        // batches go to the next lock holder instead of spending their deliveries here.
        l.on('crashed', () => void (restartPending() ? undefined : pulling?.close()));
        events.emit('learner', l);
        return l;
      };
      // A failed update leaves the weights half-updated: the learner stopped like a crash (nothing more acked), so a
      // new one resumes from the last checkpoint and the held trajectories come back to it after ack_wait. A diverged
      // learner is not restarted: a restart would replay the same batches into the same divergence.
      const sup = supervise('restarting the learner', {
        maxRestarts, signal: ac.signal,
        restartable: (err) => !isLearnerDivergedError(err),
        onRestart: (err, n, max) => env.log(`learner: update failed (${err.message}); restarting from the last checkpoint (${n} of ${max})`),
        // The failure may be the cluster's (a server cut off or lost): the restart waits, saying so once, until
        // JetStream answers again, instead of stopping the host at its first timeout (the link-cut soak's learner did).
        restart: () => (current = untilAnswered('restarting the learner', create, env.log, { signal: ac.signal })),
        onGiveUp: (end) => {
          const why = whyTheHostStops(end);
          if (why.line !== undefined) env.log(why.line);
          env.requestShutdown(why.reason);
        },
      });
      supervisor = sup;
      // On drain, a running learner first takes in what the server holds for it (a bounded run's last iteration).
      const takeDeliveredOnDrainMs = (): number => (trainOnStop && learner !== null && !learner.stopped ? 5_000 : 0);
      const input = { consumer: consumerFor('learner', SUBJECTS.trajLabeled), type: LabeledBatch, pullBatch, takeDeliveredOnDrainMs };
      // The reducer launches the learner: alone, once this host holds the learner lock (a standby launches later); in a
      // group at once, every host pulling its share while the rounds keep the weights the same everywhere.
      await r.takePart(async () => {
        current = create();
        await current;
        pulling = await env.pull(input);
      });
    },
    async stop() {
      ac.abort();
      await reducer?.leave();
      await supervisor?.settled();
      await learner?.stop();
      await reducer?.close();
    },
  };
}

/** The host's stop reason when the learner is not restarted, and the log line before it where the reason alone would not say it. */
function whyTheHostStops({ reason, error, restarts, maxRestarts }: GiveUp): { line?: string; reason: string } {
  switch (reason) {
    case 'permanent':
      return { line: `learner: ${error.message}`, reason: error.message };
    case 'exhausted':
      return {
        line: `learner: update failed after ${restarts} restart(s), stopping the host: ${error.message}`,
        reason: `the learner failed ${restarts + 1} time(s) (loop.learner.host.maxRestarts = ${maxRestarts}): ${error.message}`,
      };
    case 'restart-failed':
      return { reason: `the learner could not restart: ${error.message}` };
  }
}
