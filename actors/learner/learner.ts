// The learner's driver: builds the trainer, accounting log and weight publisher, then runs the pure learner logic
// (learner-logic.ts) on the runtime's logic driver (runtime/logic-driver.ts), which holds its mailbox and its `wake`
// timer. The host hands it each labeled batch with the message held unacked (receive()); the logic gets events one at
// a time and this class performs the effects in order: acks and releases of held messages, accounting writes, and
// the long ones off the mailbox (train, publish, checkpoint, counting work in flight), whose results come back as
// events. It has no consume loop, no dead-lettering and no in-progress acks: the host does those.
import { EventEmitter } from 'node:events';
import { WeightPublisher, isStaleVersionError } from '../../weight-sync/index.js';
import { parameterShapes, type ResolvedDecoderConfig, type HfTokenizer, type Tokenizer } from '../../model/index.js';
import type { HeldMessage } from '../../runtime/actor.js';
import type { Connection } from '../../runtime/connection.js';
import { runLogic, type LogicDriver } from '../../runtime/logic-driver.js';
import { AccountingLog } from './accounting.js';
import { LearnerStateError } from './errors.js';
import { saveTrainedCheckpoint, type LearnerState } from './learner-checkpoint.js';
import { initialLearnerState, transition, type BatchIn, type LearnerEffect, type LearnerEvent, type LearnerLogicOptions, type LearnerLogicState } from './learner-logic.js';
import { publishLearnerMetrics, type LearnerStats, type UpdateReport } from './learner-metrics.js';
import { publishVersion } from './learner-publish.js';
import { validateLearnerOptions, type LearnerOptions, type ResolvedLearnerOptions } from './options.js';
import { IdentityReducer, type GradientReducer } from './reducer.js';
import type { TrainerHandle } from './trainer-thread.js';

export interface LearnerDeps {
  conn: Connection;
  hostId: string;
  stateDir: string;
  /** Default onnxruntime threads when options.host.threads is 0 (the role's `threads`). */
  threads?: number;
  log?: (line: string) => void;
  /** Called after each update (tests, benchmarks). */
  onUpdate?: (report: UpdateReport) => void;
  /**
   * Jobs still in the pipeline that can yet produce labeled batches (the actor counts pending and unacked design,
   * rollout and evaluation messages). When given, a quiet buffer is flushed only once this is 0: a batch that is
   * merely slow (a long designer sample) is waited for, and only a lost one (dead-lettered) is given up on.
   */
  workInFlight?: () => Promise<number>;
  /** Called once when the learner stopped itself because an update failed (after it stopped like a crash). */
  onFailure?: (err: Error) => void;
  /**
   * How this learner's updates combine with other learner hosts' (reducer.ts): by default the identity, a lone
   * learner; a learner group's (group/reducer.ts) makes every update a round of the group's.
   */
  reducer?: GradientReducer;
}

type Event = LearnerEvent<HeldMessage> extends infer E ? (E extends unknown ? Omit<E, 'now'> : never) : never;

/** Emits 'received' (buffered count) after each batch, 'update' (UpdateReport) after each update, 'stopped', 'crashed'. */
export class Learner extends EventEmitter {
  private readonly state: LearnerLogicState<HeldMessage>;
  private readonly logic: LearnerLogicOptions;
  private readonly driver: LogicDriver<Event>;
  private closed: Promise<void> | null = null;
  private finish!: () => void;
  private readonly done = new Promise<void>((r) => (this.finish = r));
  private readonly log: (line: string) => void;
  private readonly unlisten: () => void;
  /** While start() waits for the logic's `started`: a crash before it fails the start instead of the supervisor's onFailure. */
  private starting: { resolve: () => void; reject: (err: Error) => void } | null = null;

  private constructor(
    readonly options: ResolvedLearnerOptions,
    private readonly deps: LearnerDeps,
    private readonly reducer: GradientReducer,
    readonly config: ResolvedDecoderConfig,
    readonly trainer: TrainerHandle,
    private readonly tokenizer: Tokenizer | HfTokenizer,
    /** An imported model's Hugging Face config.json, carried into every checkpoint and export. */
    private readonly hfConfig: Record<string, unknown> | undefined,
    private readonly accounting: AccountingLog,
    private readonly publisher: WeightPublisher,
    stats: LearnerStats,
  ) {
    super();
    this.log = deps.log ?? (() => undefined);
    this.state = initialLearnerState(stats, accounting.final, Date.now());
    this.logic = { ...options.batching, ...options.cadence, model: config, countsWorkInFlight: deps.workInFlight !== undefined, group: reducer.lockstep, hostId: deps.hostId };
    // A failed effect (an accounting write, an update) becomes the logic's `failed` event: it stops like a crash.
    this.driver = runLogic<Event, LearnerEffect<HeldMessage>>({
      transition: (e) => transition(this.state, { ...e, now: Date.now() } as LearnerEvent<HeldMessage>, this.logic).effects,
      perform: (f) => this.perform(f),
      failed: (error) => ({ type: 'failed', error }),
      settled: (e) => {
        if (e.type === 'received') this.emit('received', this.state.buffer.length);
      },
    });
    // Whether and when to join the others' round is the logic's (it joins once idle); this only tells it of one.
    this.unlisten = reducer.listen({
      round: (round) => void this.dispatch({ type: 'round', round }).catch(() => undefined),
      peerBatch: (iteration, batchId) => void this.dispatch({ type: 'peerBatch', iteration, batchId }).catch(() => undefined),
    });
  }

  /** Loads (resume, base checkpoint or fresh), opens the accounting log, and aligns the published version. */
  static async create(deps: LearnerDeps, options: LearnerOptions = {}): Promise<Learner> {
    const o = validateLearnerOptions(options);
    const reducer = deps.reducer ?? new IdentityReducer();
    const m = await reducer.load(deps.stateDir, o, o.host.threads || deps.threads || 0);
    let accounting: AccountingLog | null = null;
    try {
      accounting = await AccountingLog.open(deps.stateDir, m.state.updates);
      await accounting.appliedElsewhere(m.missed ?? [], m.state.version);
      const publisher = new WeightPublisher(deps.conn, { modelConfig: m.config, shapes: parameterShapes(m.config) });
      // Resume exactly where the learner stopped: the staleness accounting from the checkpoint (it covers the same
      // updates as the weights), the drops from the log (final as soon as written, so also those since the last
      // checkpoint). Only this process's own figures (duplicates seen, compute time, versions it published) start at 0.
      const { stale, invalid } = accounting.droppedBy;
      const stats: LearnerStats = {
        ...m.state, origin: m.origin, dropped: stale + invalid, droppedStale: stale, droppedInvalid: invalid,
        skipped: m.state.skipped ?? 0, trainedTokens: m.state.trainedTokens ?? 0, stalenessMax: m.state.stalenessMax ?? 0,
        stalenessHistogram: (m.state.stalenessHistogram ?? []).map((n) => n ?? 0),
        duplicates: 0, computeMs: 0, startedAt: Date.now(), published: [],
      };
      // The published version, or one handed to this process's samplers whose upload never completed (weight-sync/live.ts).
      const published = await publisher.currentVersion();
      const l = new Learner(o, deps, reducer, m.config, m.trainer, m.tokenizer, m.hfConfig, accounting, publisher, stats);
      // Sent right after the constructor (an idle driver handles it at once): it comes before any of the others' events.
      await l.start(published);
      l.log(`learner: ${m.origin} at update ${stats.updates}, policy version ${stats.version}, eta ${o.batching.eta}`);
      return l;
    } catch (err) {
      // Do not leave the trainer thread behind: it would keep the process alive after a failed start.
      await accounting?.close().catch(() => undefined);
      await m.trainer.close().catch(() => undefined);
      throw err;
    }
  }

  /** The logic chooses the version it starts at from the published one (publishing it, or keeping its own). */
  private start(published: number): Promise<void> {
    const started = new Promise<void>((resolve, reject) => (this.starting = { resolve, reject }));
    void this.dispatch({ type: 'start', published }).catch(() => undefined);
    // A round that began while this learner was loading (the listener hears only the rounds that begin from now on).
    const round = this.reducer.openRound();
    if (round > 0) void this.dispatch({ type: 'round', round }).catch(() => undefined);
    return started;
  }

  get stats(): LearnerStats {
    return this.state.stats;
  }

  get version(): number {
    return this.state.stats.version;
  }

  /** What the reducer knows of the other learners (a group: its newest round, the beats, what an exchange waits for). */
  get peers(): Record<string, unknown> {
    return this.reducer.status();
  }

  /** Trajectories received and waiting for an update. */
  get buffered(): number {
    return this.state.buffer.length;
  }

  /** What the learner is doing (idle, training, publishing, checkpointing, …): for diagnostics. */
  get phase(): string {
    return this.state.phase;
  }

  /** True once it stopped (drained or crashed): it takes no more batches. */
  get stopped(): boolean {
    return this.state.phase === 'stopped' || this.state.phase === 'crashed';
  }

  /** Takes one labeled batch whose message the host holds; resolves once its drops are on disk and its acks sent. */
  receive(batch: BatchIn, held: HeldMessage): Promise<void> {
    if (this.stopped) return Promise.reject(new LearnerStateError('the learner stopped; the batch goes back to the queue', { streamSeq: held.streamSeq }));
    this.reducer.announceBatch(batch.iteration, batch.batchId);
    return this.dispatch({ type: 'received', ref: held, streamSeq: held.streamSeq, batch });
  }

  /** Graceful: finish the update in progress, train what is buffered (trainOnStop), checkpoint, ack what became final, release the rest. */
  async stop(): Promise<void> {
    void this.dispatch({ type: 'stop' }).catch(() => undefined);
    await this.done;
  }

  /** A crash, for tests and a lost lock: stop at once, write nothing more, ack nothing; held messages come back after ack_wait. */
  async crash(): Promise<void> {
    void this.dispatch({ type: 'crash' }).catch(() => undefined);
    await this.done;
  }

  private dispatch(e: Event): Promise<void> {
    return this.driver.send(e);
  }

  private async perform(f: LearnerEffect<HeldMessage>): Promise<void> {
    switch (f.type) {
      case 'log': return this.log(f.line);
      case 'ack': return f.ref.ack();
      case 'release': return f.ref.release();
      case 'abandon': return f.ref.abandon();
      case 'drop': return this.accounting.dropped(f.version, f.reason, f.ids);
      case 'applied': return this.accounting.applied(f.update, f.version, f.ids);
      case 'wake': return this.driver.after(f.ms, { type: 'tick' }, 'wake');
      case 'countWorkInFlight':
        return this.driver.later(async () => ({ type: 'workInFlight', count: await this.deps.workInFlight!().catch((err: Error) => (this.log(`learner: cannot count work in flight (${err.message}); flushing`), 0)) }));
      case 'train':
        return this.driver.later(async () => {
          const u = await this.reducer.update(f.rows, f.norm, f.ids);
          return { type: 'trained', stats: u.stats, groupIds: u.groupIds, members: u.stats.group?.members };
        });
      case 'publish':
        return this.driver.later(async () => {
          try {
            await this.publish(f.version);
            return { type: 'published', version: f.version };
          } catch (err) {
            // Whether another learner publishing it first is a failure is the logic's to say.
            if (isStaleVersionError(err)) return { type: 'publishTaken', version: f.version, error: err };
            throw err;
          }
        });
      case 'started':
        this.starting?.resolve();
        this.starting = null;
        return;
      case 'checkpoint': return this.driver.later(async () => (await this.checkpoint(f.state), { type: 'checkpointed' }));
      case 'metrics':
        return publishLearnerMetrics(this.deps.conn, this.deps.hostId, f.stats, f.report).catch((err: Error) => this.log(`learner: metrics not published: ${err.message}`));
      case 'updated':
        this.deps.onUpdate?.(f.report);
        this.emit('update', f.report);
        return;
      case 'stopped':
        await this.close();
        this.failStart(new LearnerStateError('the learner stopped while starting', {}));
        this.emit('stopped');
        return this.finish();
      case 'crashed': {
        await this.close();
        this.finish();
        const starting = this.starting !== null;
        this.failStart(f.error ?? new LearnerStateError('the learner crashed while starting', {}));
        if (f.error && !starting) this.deps.onFailure?.(f.error);
        this.emit('crashed');
        return;
      }
    }
  }

  /** A start that ends before the logic's `started` fails with `err` (create() rejects with it). */
  private failStart(err: Error): void {
    this.starting?.reject(err);
    this.starting = null;
  }

  private publish(version: number): Promise<void> {
    return publishVersion(this.publisher, this.trainer, this.reducer, version, this.log);
  }

  /** The update lines first, then weights, optimizer and learner state. */
  private async checkpoint(state: LearnerState): Promise<void> {
    await this.accounting.sync();
    const c = { state, model: { ...this.config }, shapes: parameterShapes(this.config), tokenizer: this.tokenizer, hfConfig: this.hfConfig };
    await saveTrainedCheckpoint(this.deps.stateDir, c, await this.trainer.state(), this.options.checkpoints.keep, this.options.checkpoints.format);
    this.accounting.checkpointed();
  }

  private close(): Promise<void> {
    void this.driver.stop(); // cancels the wake; called from an effect, so it does not wait for the mailbox
    this.unlisten();
    return (this.closed ??= (async () => {
      await this.accounting.close().catch(() => undefined);
      await this.trainer.close().catch(() => undefined);
    })());
  }
}
