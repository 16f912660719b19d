// The learner's driver: builds the trainer, accounting log and weight publisher, then runs the pure learner logic
// (learner-logic.ts). The host hands it each labeled batch with the message held unacked (receive()); the driver
// feeds events to the logic one at a time and performs the effects in order: acks and releases of held messages,
// accounting writes, and the long ones (train, publish, checkpoint, counting work in flight), whose results come
// back as events. It has no consume loop, no dead-lettering and no in-progress acks: the host does those.
import { EventEmitter } from 'node:events';
import { WeightPublisher, isNonFiniteWeightsError, isWeightTransportError } from '../../weight-sync/index.js';
import { isNonFiniteTensorError, parameterShapes, type ResolvedDecoderConfig, type HfTokenizer, type Tokenizer } from '../../model/index.js';
import type { HeldMessage } from '../../runtime/actor.js';
import type { Connection } from '../../runtime/connection.js';
import { BUCKETS, learnerRoundKey } from '../../runtime/subjects.js';
import { AccountingLog } from './accounting.js';
import { LearnerDivergedError, LearnerStateError } from './errors.js';
import { saveLearnerCheckpoint, type LearnerState } from './learner-checkpoint.js';
import { initialLearnerState, transition, type BatchIn, type LearnerEffect, type LearnerEvent, type LearnerLogicOptions, type LearnerLogicState } from './learner-logic.js';
import { publishLearnerMetrics, type LearnerStats, type UpdateReport } from './learner-metrics.js';
import { loadLearnerModel } from './learner-model.js';
import { validateLearnerOptions, type LearnerOptions, type ResolvedLearnerOptions } from './options.js';
import type { UpdateStats } from './policy-trainer.js';
import { LocalTrainer, type TrainerHandle } from './trainer-thread.js';
import type { GroupReduce } from './group-reduce.js';
import { GroupTrainer, type GroupUpdateStats } from './group-trainer.js';
import { loadGroupState, publishGroupState } from './group-state.js';
import { LearnerStateError as GroupStateError } from './errors.js';
import { isStaleVersionError } from '../../weight-sync/index.js';

export interface LearnerDeps {
  conn: Connection;
  hostId: string;
  stateDir: string;
  /** Default onnxruntime threads when options.threads is 0 (the role's `threads`). */
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
   * Makes this learner a member of the learner group (group-reduce.ts): it starts from the group's published state
   * when that is newer than its own checkpoint, every update is a group round, and only the round's first member
   * (in host order) publishes the version (with the optimizer state a joining member starts from).
   */
  group?: GroupReduce;
}

type Event = LearnerEvent<HeldMessage> extends infer E ? (E extends unknown ? Omit<E, 'now'> : never) : never;

/** Emits 'received' (buffered count) after each batch, 'update' (UpdateReport) after each update, 'stopped', 'crashed'. */
export class Learner extends EventEmitter {
  private readonly state: LearnerLogicState<HeldMessage>;
  private readonly logic: LearnerLogicOptions;
  private queue: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed: Promise<void> | null = null;
  private finish!: () => void;
  private readonly done = new Promise<void>((r) => (this.finish = r));
  private readonly log: (line: string) => void;
  /** The members of the last group round (the first one publishes). */
  private roundMembers: string[] = [];
  private readonly unlisten: Array<() => void> = [];

  private constructor(
    readonly options: ResolvedLearnerOptions,
    private readonly deps: LearnerDeps,
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
    this.logic = { ...options, model: config, countsWorkInFlight: deps.workInFlight !== undefined, group: deps.group !== undefined };
    const g = deps.group;
    if (g) {
      // Idle or busy with its own checkpoint, a member joins the others' round as soon as it can.
      this.unlisten.push(
        g.onRound(() => void this.dispatch({ type: 'round' }).catch(() => undefined)),
        g.onBatch((iteration, batchId) => void this.dispatch({ type: 'peerBatch', iteration, batchId }).catch(() => undefined)),
      );
    }
  }

  /**
   * A group member that is idle while the others are in a round it has not applied joins it. Checked after every
   * event, not only when the group's first contribution arrives: that signal comes once, and a member busy then
   * (publishing, checkpointing, counting work in flight) or still starting would otherwise sit the round out, be dropped
   * from it after the timeout, and find its own next round refused as one the group already committed.
   */
  private joinPendingRound(): void {
    const g = this.deps.group;
    if (g === undefined || this.state.phase !== 'idle' || this.state.stopping) return;
    if (g.newestRound > (this.trainer as GroupTrainer).round && g.newestRound >= g.joinsFrom) void this.dispatch({ type: 'round' }).catch(() => undefined);
  }

  /** Loads (resume, base checkpoint or fresh), opens the accounting log, and aligns the published version. */
  static async create(deps: LearnerDeps, options: LearnerOptions = {}): Promise<Learner> {
    const o = validateLearnerOptions(options);
    if (deps.group && o.publishEvery !== 1) throw new GroupStateError(`a learner group publishes every round (a joining member starts from the published state): loop.learner.publishEvery must be 1, got ${o.publishEvery}`, { field: 'publishEvery' });
    // The others' next round waits for this member while it loads (the model, then the group's state).
    await deps.group?.joining();
    // A group member trains on the main thread: its gradients go out over the bus between backward and step.
    const m = await loadLearnerModel(deps.stateDir, deps.group ? { ...o, ownThread: false } : o, o.threads || deps.threads || 0);
    const missed: Array<[number, string[]]> = [];
    if (deps.group) {
      const local = m.trainer as LocalTrainer;
      // The others keep publishing while this one loads: a version pruned mid-download is retried with the newer one.
      let g: Awaited<ReturnType<typeof loadGroupState>> = null;
      for (let attempt = 1; ; attempt++) {
        try {
          g = await loadGroupState(deps.conn, m.config, parameterShapes(m.config));
          break;
        } catch (err) {
          if (!isWeightTransportError(err) || attempt >= 5) throw err;
          await new Promise((r) => setTimeout(r, 200 * attempt));
        }
      }
      if (g !== null && g.round > m.state.updates) {
        // The group is ahead of this host's checkpoint (a join, or a restart after the others went on): take its state,
        // and the ids of the rounds missed, so that their redeliveries are recognised here too. Rounds pruned from the
        // bucket are past redelivery (GroupReduce.prune), so their ids are not needed.
        const pruned = await deps.group.prunedThrough();
        if (pruned > m.state.updates) deps.log?.(`learner: rounds ${m.state.updates + 1}..${Math.min(pruned, g.round)} were pruned from ${BUCKETS.learnerRounds}; their trajectories are final, their ids not logged here`);
        for (let r = Math.max(m.state.updates, pruned) + 1; r <= g.round; r++) {
          const ids = await deps.group.roundIds(r);
          // Every member of a round records its ids before it goes on, so a published state has them for all its rounds.
          if (ids === null) throw new GroupStateError(`the group's state is at round ${g.round}, but the trajectory ids of round ${r} are not in ${BUCKETS.learnerRounds}: ${deps.hostId} cannot tell which trajectories that round applied, and would apply their redeliveries again`, { round: r, field: learnerRoundKey(r, 'ids') });
          missed.push([r, ids]);
        }
        for (const [k, w] of g.weights) local.trainer.weights.set(k, w.slice());
        local.trainer.optimizer.loadState(g.optimizer);
        m.state = { ...m.state, version: g.version, updates: g.round };
        m.origin = 'group';
      }
      m.trainer = new GroupTrainer(local.trainer, deps.group, m.state.updates);
      await deps.group.appliedRound(m.state.updates);
    }
    let accounting: AccountingLog | null = null;
    try {
      accounting = await AccountingLog.open(deps.stateDir, m.state.updates);
      if (missed.length > 0) {
        for (const [r, ids] of missed) {
          const fresh = ids.filter((id) => !accounting!.seen(id)); // a round this host applied before it stopped is logged already
          if (fresh.length > 0) await accounting.applied(r, m.state.version, fresh);
        }
        await accounting.sync();
        accounting.checkpointed(); // final: the group's published state holds them
      }
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
      const l = new Learner(o, deps, m.config, m.trainer, m.tokenizer, m.hfConfig, accounting, publisher, stats);
      await l.alignVersion();
      l.log(`learner: ${m.origin} at update ${stats.updates}, policy version ${stats.version}, eta ${o.eta}`);
      l.joinPendingRound(); // a round that began while this member was loading
      return l;
    } catch (err) {
      // Do not leave the trainer thread behind: it would keep the process alive after a failed start.
      await accounting?.close().catch(() => undefined);
      await m.trainer.close().catch(() => undefined);
      throw err;
    }
  }

  /** Makes the published version the learner's: first publish, or past versions a crash rolled back. */
  private async alignVersion(): Promise<void> {
    const cur = await this.publisher.current();
    const v = this.stats.version;
    const to = cur === null || cur.version < v ? v : cur.version > v ? cur.version + 1 : null;
    if (to === null) return;
    if (this.deps.group && cur !== null && cur.version > v) return; // the group went on: its next round brings this member along
    try {
      await this.publish(to);
    } catch (err) {
      if (this.deps.group && isStaleVersionError(err)) return; // another member published it first
      throw err;
    }
    this.state.stats.version = to;
    this.state.stats.published.push(to);
  }

  get stats(): LearnerStats {
    return this.state.stats;
  }

  get version(): number {
    return this.state.stats.version;
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
    this.deps.group?.announceBatch(batch.iteration, batch.batchId);
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
    const run = this.queue.then(() => this.apply(e));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(e: Event): Promise<void> {
    const { effects } = transition(this.state, { ...e, now: Date.now() } as LearnerEvent<HeldMessage>, this.logic);
    try {
      for (const f of effects) await this.perform(f);
    } catch (err) {
      // An accounting write failed: nothing after it may be acked. Stop like a crash.
      for (const f of transition(this.state, { type: 'failed', error: err as Error, now: Date.now() }, this.logic).effects) await this.perform(f).catch(() => undefined);
      throw err;
    }
    if (e.type === 'received') this.emit('received', this.state.buffer.length);
    if (e.type !== 'round') this.joinPendingRound();
  }

  private async perform(f: LearnerEffect<HeldMessage>): Promise<void> {
    switch (f.type) {
      case 'log': return this.log(f.line);
      case 'ack': return f.ref.ack();
      case 'release': return f.ref.release();
      case 'abandon': return f.ref.abandon();
      case 'drop': return this.accounting.dropped(f.version, f.reason, f.ids);
      case 'applied': return this.accounting.applied(f.update, f.version, f.ids);
      case 'wake':
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.dispatch({ type: 'tick' }).catch(() => undefined), f.ms);
        return;
      case 'countWorkInFlight':
        return this.later(async () => ({ type: 'workInFlight', count: await this.deps.workInFlight!().catch((err: Error) => (this.log(`learner: cannot count work in flight (${err.message}); flushing`), 0)) }));
      case 'train':
        if (this.trainer instanceof GroupTrainer) {
          const group = this.trainer;
          return this.later(async () => {
            const stats: GroupUpdateStats = await group.update(f.rows, f.norm, f.ids);
            this.roundMembers = stats.group.members;
            return { type: 'trained', stats, groupIds: stats.group.ids };
          });
        }
        return this.later(async () => ({ type: 'trained', stats: f.rows.length > 0 ? await this.trainer.update(f.rows, f.norm) : this.idleUpdate() }));
      case 'publish':
        // In a group only the round's first member uploads; the others move to the same version without.
        if (this.deps.group && this.roundMembers[0] !== this.deps.hostId) return this.later(async () => ({ type: 'published', version: f.version }));
        return this.later(async () => (await this.publish(f.version), { type: 'published', version: f.version }));
      case 'checkpoint': return this.later(async () => (await this.checkpoint(f.state), { type: 'checkpointed' }));
      case 'metrics':
        return publishLearnerMetrics(this.deps.conn, this.deps.hostId, f.stats, f.report).catch((err: Error) => this.log(`learner: metrics not published: ${err.message}`));
      case 'updated':
        this.deps.onUpdate?.(f.report);
        this.emit('update', f.report);
        return;
      case 'stopped':
        await this.close();
        this.emit('stopped');
        return this.finish();
      case 'crashed':
        await this.close();
        this.finish();
        if (f.error) this.deps.onFailure?.(f.error);
        this.emit('crashed');
        return;
    }
  }

  /** Runs a long effect off the event queue; its result (or failure) comes back as the next event. */
  private later(work: () => Promise<Event>): void {
    void work().then((e) => this.dispatch(e), (error: Error) => this.dispatch({ type: 'failed', error })).catch(() => undefined);
  }

  /** The report of an update whose trajectories all had zero advantage: no compute, no optimizer step. */
  private idleUpdate(): UpdateStats {
    const step = this.trainer.step;
    const none = { tokens: 0, norm: 0, loss: 0, entropy: NaN };
    return {
      rows: 0, tokens: 0, processedTokens: 0, loss: 0, clipFraction: 0, tisFraction: 0, meanRatio: 1, byRole: { designer: none, agent: { ...none } },
      gradNorm: 0, lr: 0, optimizerStep: step, computeMs: 0,
    };
  }

  /** Publishes, retrying transport failures a few times (a NATS hiccup must not cost the update). */
  private async publish(version: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.publisher.publish(await this.trainer.weights(), { version, step: this.trainer.step });
        if (this.trainer instanceof GroupTrainer) await publishGroupState(this.deps.conn, version, this.trainer.round, (await this.trainer.state()).optimizer);
        return;
      } catch (err) {
        // The publisher refuses NaN/Inf before uploading anything: say that the learner diverged.
        if (isNonFiniteWeightsError(err)) throw new LearnerDivergedError(`the weights of version ${version} (not published)`, { tensor: err.tensor ?? '?', index: err.index, value: err.value }, err);
        if (!isWeightTransportError(err) || attempt >= 5) throw err;
        this.log(`learner: publishing version ${version} failed (attempt ${attempt}), retrying: ${err.message}`);
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }

  /** The update lines first, then weights, optimizer and learner state. */
  private async checkpoint(state: LearnerState): Promise<void> {
    await this.accounting.sync();
    const trained = await this.trainer.state();
    try {
      await saveLearnerCheckpoint(this.deps.stateDir, {
        state, model: { ...this.config }, params: trained.weights, shapes: parameterShapes(this.config), tokenizer: this.tokenizer, hfConfig: this.hfConfig, optimizer: trained.optimizer,
      }, this.options.keepCheckpoints, this.options.checkpointFormat);
    } catch (err) {
      // saveCheckpoint refuses NaN/Inf (a checkpoint between publishes, publishEvery > 1, would otherwise keep them).
      if (isNonFiniteTensorError(err)) throw new LearnerDivergedError(`${/^[mv]\./.test(err.tensor) ? 'the optimizer moments' : 'the weights'} after update ${state.updates} (not checkpointed)`, { tensor: err.tensor, index: err.index, value: err.value }, err);
      throw err;
    }
    this.accounting.checkpointed();
  }

  private close(): Promise<void> {
    clearTimeout(this.timer);
    for (const u of this.unlisten.splice(0)) u();
    return (this.closed ??= (async () => {
      await this.accounting.close().catch(() => undefined);
      await this.trainer.close().catch(() => undefined);
    })());
  }
}
