// The learner: pulls labeled batches from its durable consumer, admits trajectories by staleness, trains a
// minibatch at a time, publishes weights every N updates, checkpoints every M, and acks a message only once every
// trajectory in it is final (applied in a checkpointed update, or dropped with the drop on disk). It runs its own
// consume loop, not the host's handler, because one update spans many messages and acks wait for a checkpoint.
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { WeightPublisher, isWeightTransportError } from '../../model/weight-sync.js';
import { parameterShapes, type ResolvedDecoderConfig, type Tokenizer } from '../../model/index.js';
import type { Connection } from '../../runtime/connection.js';
import { publishDeadLetter } from '../../runtime/dead-letter.js';
import { decode } from '../../runtime/messages.js';
import { SUBJECTS, durableName } from '../../runtime/subjects.js';
import { consumerFor } from '../../runtime/topology.js';
import { LabeledBatch } from '../messages.js';
import { AccountingLog, type DropReason } from './accounting.js';
import { isSampleShapeError } from './errors.js';
import { saveLearnerCheckpoint } from './learner-checkpoint.js';
import { publishLearnerMetrics, type LearnerStats, type UpdateReport } from './learner-metrics.js';
import { loadLearnerModel } from './learner-model.js';
import { validateLearnerOptions, type LearnerOptions, type ResolvedLearnerOptions } from './options.js';
import type { UpdateStats } from './policy-trainer.js';
import type { TrainerHandle } from './trainer-thread.js';
import { selectMinibatch, type Buffered, type Selection } from './minibatch.js';
import { admitted, minVersion, rowTokens, trajectoryRows, type Row } from './rows.js';

export interface LearnerDeps {
  conn: Connection;
  hostId: string;
  /** The consumer's ack wait: pending messages get in-progress acks three times per period. */
  ackWaitMs: number;
  stateDir: string;
  /** After this many deliveries a message the learner cannot take goes to the dead-letter subject (config.delivery.maxDeliver). */
  maxDeliver?: number;
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
}

interface Pending {
  msg: JsMsg;
  ids: string[];
}

export class Learner {
  readonly stats: LearnerStats;
  private readonly buffer: Buffered[] = [];
  private readonly inBuffer = new Set<string>();
  /** Distinct labeled batches received per iteration (iteration-aligned minibatches). */
  private readonly iterationBatches = new Map<number, Set<string>>();
  private trainedThrough = -1;
  private pending: Pending[] = [];
  private messages: ConsumerMessages | null = null;
  private loops: Promise<void>[] = [];
  private wake: () => void = () => undefined;
  private ticker: NodeJS.Timeout | undefined;
  private lastArrival = 0;
  private checkpointedAt: number;
  private stopping = false;
  private crashed = false;
  private readonly log: (line: string) => void;

  private constructor(
    readonly options: ResolvedLearnerOptions,
    private readonly deps: LearnerDeps,
    readonly config: ResolvedDecoderConfig,
    readonly trainer: TrainerHandle,
    private readonly tokenizer: Tokenizer,
    private readonly accounting: AccountingLog,
    private readonly publisher: WeightPublisher,
    stats: LearnerStats,
  ) {
    this.stats = stats;
    this.checkpointedAt = stats.updates;
    this.log = deps.log ?? (() => undefined);
  }

  /** Loads (resume, base checkpoint or fresh), opens the accounting log, and aligns the published version. */
  static async create(deps: LearnerDeps, options: LearnerOptions = {}): Promise<Learner> {
    const o = validateLearnerOptions(options);
    const m = await loadLearnerModel(deps.stateDir, o, o.threads || deps.threads || 0);
    let accounting: AccountingLog | null = null;
    try {
      accounting = await AccountingLog.open(deps.stateDir, m.state.updates);
      const publisher = new WeightPublisher(deps.conn, { modelConfig: m.config, shapes: parameterShapes(m.config) });
      const stats: LearnerStats = {
        ...m.state, origin: m.origin, droppedStale: 0, droppedInvalid: 0, skipped: 0, duplicates: 0, trainedTokens: 0, computeMs: 0,
        startedAt: Date.now(), stalenessMax: 0, stalenessHistogram: [], published: [],
      };
      const l = new Learner(o, deps, m.config, m.trainer, m.tokenizer, accounting, publisher, stats);
      await l.alignVersion();
      l.log(`learner: ${m.origin} at update ${stats.updates}, policy version ${stats.version}, eta ${o.eta}`);
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
    if (cur === null || cur.version < this.stats.version) await this.publish(this.stats.version);
    else if (cur.version > this.stats.version) await this.publish(cur.version + 1);
  }

  get version(): number {
    return this.stats.version;
  }

  /** Trajectories received and waiting for an update. */
  get buffered(): number {
    return this.buffer.length;
  }

  async start(): Promise<void> {
    const decl = consumerFor('learner', SUBJECTS.trajLabeled);
    const consumer = await this.deps.conn.js.consumers.get(decl.stream, durableName(decl.role));
    this.messages = await consumer.consume({ max_messages: this.options.pullBatch, expires: 30_000 });
    const every = Math.max(100, Math.floor(this.deps.ackWaitMs / 3));
    this.ticker = setInterval(() => this.pending.forEach((p) => p.msg.working()), every);
    this.ticker.unref();
    this.stats.startedAt = Date.now();
    this.loops = [this.consumeLoop(this.messages), this.trainLoop()];
  }

  private async consumeLoop(messages: ConsumerMessages): Promise<void> {
    for await (const msg of messages) {
      if (this.stopping) break;
      try {
        await this.receive(msg);
      } catch (err) {
        const where = `${msg.subject}#${msg.info.streamSequence} (delivery ${msg.info.deliveryCount})`;
        if (msg.info.deliveryCount >= (this.deps.maxDeliver ?? 5)) {
          this.log(`learner: dead-lettering ${where}: ${(err as Error).message}`);
          await publishDeadLetter(this.deps.conn.js, msg, { role: 'learner', host: this.deps.hostId, reason: (err as Error).message, code: 'LEARNER_RECEIVE' })
            .then(() => msg.ack(), () => msg.nak(1_000));
        } else {
          this.log(`learner: cannot take ${where}, retrying: ${(err as Error).message}`);
          msg.nak(1_000);
        }
      }
    }
  }

  private async receive(msg: JsMsg): Promise<void> {
    let batch;
    try {
      batch = decode(LabeledBatch, msg.data, { subject: msg.subject, streamSeq: msg.info.streamSequence });
    } catch (err) {
      await publishDeadLetter(this.deps.conn.js, msg, { role: 'learner', host: this.deps.hostId, reason: (err as Error).message, code: 'DECODE' });
      msg.ack();
      return;
    }
    const seen = this.iterationBatches.get(batch.iteration) ?? new Set<string>();
    this.iterationBatches.set(batch.iteration, seen.add(batch.batchId));
    const stale: string[] = [], invalid: string[] = [];
    for (const traj of batch.trajectories) {
      const id = traj.trajId;
      if (this.accounting.seen(id) || this.inBuffer.has(id)) {
        this.stats.duplicates++;
        continue;
      }
      if (!admitted(this.stats.version, this.options.eta, traj)) {
        stale.push(id);
        continue;
      }
      let rows: Row[];
      try {
        rows = trajectoryRows(traj, this.config);
      } catch (err) {
        if (!isSampleShapeError(err)) throw err;
        this.log(`learner: dropping ${err.message}`);
        invalid.push(id);
        continue;
      }
      if (rows.length === 0) invalid.push(id);
      else {
        this.buffer.push({
          trajId: id, rows, tokens: rows.reduce((n, r) => n + rowTokens(r), 0), minVersion: minVersion(traj), advantage: traj.advantage, iteration: batch.iteration,
        });
        this.inBuffer.add(id);
      }
    }
    await this.drop('stale', stale);
    await this.drop('invalid', invalid);
    this.pending.push({ msg, ids: batch.trajectories.map((t) => t.trajId) });
    this.ackFinal();
    this.lastArrival = Date.now();
    this.wake();
  }

  private async drop(reason: DropReason, ids: string[]): Promise<void> {
    if (ids.length === 0 || this.crashed) return;
    await this.accounting.dropped(this.stats.version, reason, ids);
    this.stats.dropped += ids.length;
    if (reason === 'stale') this.stats.droppedStale += ids.length;
    else this.stats.droppedInvalid += ids.length;
  }

  /** Acks every pending message whose trajectories are all final. */
  private ackFinal(): void {
    if (this.crashed) return;
    this.pending = this.pending.filter((p) => {
      if (!p.ids.every((id) => this.accounting.final.has(id))) return true;
      p.msg.ack();
      this.stats.lastStreamSeq = Math.max(this.stats.lastStreamSeq, p.msg.info.streamSequence);
      return false;
    });
  }

  private async trainLoop(): Promise<void> {
    while (!this.stopping) {
      // Stragglers of an iteration already trained (after a flush) count as complete: they never wait again.
      const batchesOf = (i: number): number => (i <= this.trainedThrough ? Infinity : this.iterationBatches.get(i)?.size ?? 0);
      const sel = await this.select(batchesOf);
      if ('waitMs' in sel) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, sel.waitMs);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        continue;
      }
      const take = sel.take;
      // Iterations at or before the one taken are done with (late duplicates of them only need acks).
      const last = Math.max(...take.map((b) => b.iteration));
      this.trainedThrough = Math.max(this.trainedThrough, last);
      for (const i of this.iterationBatches.keys()) if (i <= last) this.iterationBatches.delete(i);
      try {
        await this.update(take);
      } catch (err) {
        // The weights may be half-updated: stop like a crash; unacked work returns to a restarted learner.
        this.stats.error = (err as Error).message;
        this.log(`learner: update failed, stopping without checkpoint (restart the learner to resume): ${(err as Error).stack ?? String(err)}`);
        void this.crash().then(() => this.deps.onFailure?.(err as Error));
        return;
      }
    }
  }

  /** The next minibatch, or how long to wait; a flush of an incomplete buffer waits while work is in flight. */
  private async select(batchesOf: (i: number) => number): Promise<Selection> {
    const quiet = Date.now() - this.lastArrival;
    const flushAt = this.options.flushAfterMs;
    const ready = selectMinibatch(this.buffer, batchesOf, Math.min(quiet, flushAt - 1), this.options);
    if ('take' in ready || quiet < flushAt || this.buffer.length === 0) return ready;
    const busy = this.deps.workInFlight ? await this.deps.workInFlight().catch((err: Error) => (this.log(`learner: cannot count work in flight (${err.message}); flushing`), 0)) : 0;
    if (busy > 0) {
      this.lastArrival = Date.now(); // quiet, but the rest can still come: wait another period
      return { waitMs: flushAt };
    }
    const sel = selectMinibatch(this.buffer, batchesOf, quiet, this.options);
    if ('take' in sel) {
      const its = [...new Set(sel.take.map((b) => b.iteration))];
      this.log(`learner: flushing ${sel.take.length} trajectories (iteration ${its.join(', ')}, ${its.map(batchesOf).join(', ')} of ${this.options.iterationBatches || '-'} batches) after ${(quiet / 1000).toFixed(1)} s quiet with no work in flight`);
    }
    return sel;
  }

  private async update(items: Buffered[]): Promise<void> {
    // Admission again at update time: the version may have moved since these arrived.
    const version = this.stats.version;
    const keep = items.filter((b) => version - b.minVersion <= this.options.eta);
    const stale = items.filter((b) => version - b.minVersion > this.options.eta);
    let report: UpdateReport | null = null;
    if (keep.length > 0) {
      // A zero advantage gives a zero gradient: skip its compute (it would only dilute the token-mean). The
      // update still counts and publishes, so the version advances once per minibatch whatever the data.
      const signal = this.options.skipZeroAdvantage ? keep.filter((b) => b.advantage !== 0) : keep;
      this.stats.skipped += keep.length - signal.length;
      const u = signal.length > 0 ? await this.trainer.update(signal.flatMap((b) => b.rows)) : this.idleUpdate();
      if (this.crashed) return;
      const lags = keep.map((b) => Math.max(0, version - b.minVersion));
      this.stats.updates++;
      this.stats.applied += keep.length;
      this.stats.trainedTokens += u.tokens;
      this.stats.computeMs += u.computeMs;
      this.stats.stalenessMax = Math.max(this.stats.stalenessMax, ...lags);
      for (const lag of lags) this.stats.stalenessHistogram[lag] = (this.stats.stalenessHistogram[lag] ?? 0) + 1;
      await this.accounting.applied(this.stats.updates, version, keep.map((b) => b.trajId));
      report = { ...u, update: this.stats.updates, version, trajectories: keep.length, stalenessMean: lags.reduce((a, b) => a + b, 0) / lags.length, stalenessMax: Math.max(...lags) };
    }
    await this.drop('stale', stale.map((b) => b.trajId));
    for (const b of items) this.inBuffer.delete(b.trajId);
    if (report === null || this.crashed) return;
    if (this.stats.updates % this.options.publishEvery === 0) await this.publish(this.stats.version + 1);
    if (this.stats.updates % this.options.checkpointEvery === 0) await this.checkpoint();
    await publishLearnerMetrics(this.deps.conn, this.deps.hostId, this.stats, report).catch((err: Error) => this.log(`learner: metrics not published: ${err.message}`));
    this.stats.last = report;
    this.deps.onUpdate?.(report);
  }

  /** The report of an update whose trajectories all had zero advantage: no compute, no optimizer step. */
  private idleUpdate(): UpdateStats {
    const step = this.trainer.step;
    return { rows: 0, tokens: 0, processedTokens: 0, loss: 0, clipFraction: 0, tisFraction: 0, meanRatio: 1, gradNorm: 0, lr: 0, optimizerStep: step, computeMs: 0 };
  }

  /** Publishes, retrying transport failures a few times (a NATS hiccup must not cost the update). */
  private async publish(version: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.publisher.publish(await this.trainer.weights(), { version, step: this.trainer.step });
        break;
      } catch (err) {
        if (!isWeightTransportError(err) || attempt >= 5) throw err;
        this.log(`learner: publishing version ${version} failed (attempt ${attempt}), retrying: ${err.message}`);
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
    this.stats.version = version;
    this.stats.published.push(version);
  }

  /** Weights, optimizer and learner state, then acks for everything the checkpoint makes final. */
  async checkpoint(): Promise<void> {
    await this.accounting.sync();
    // Messages this checkpoint covers are acked right after it: record the highest of their stream sequences.
    for (const p of this.pending) if (p.ids.every((id) => this.accounting.seen(id))) this.stats.lastStreamSeq = Math.max(this.stats.lastStreamSeq, p.msg.info.streamSequence);
    const { version, updates, applied, dropped, lastStreamSeq } = this.stats;
    const trained = await this.trainer.state();
    await saveLearnerCheckpoint(this.deps.stateDir, {
      state: { version, updates, applied, dropped, lastStreamSeq }, model: { ...this.config }, params: trained.weights,
      shapes: parameterShapes(this.config), tokenizer: this.tokenizer, optimizer: trained.optimizer,
    }, this.options.keepCheckpoints);
    this.checkpointedAt = updates;
    this.accounting.checkpointed();
    this.ackFinal();
  }

  /** Graceful: finish the update in progress, train what is buffered (trainOnStop), checkpoint, ack what became final, nak the rest. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    // A bounded run stops right after its last batch is labeled: take in what the server already holds for us.
    if (this.options.trainOnStop && !this.crashed) await this.takeDelivered(5_000);
    this.stopping = true;
    this.wake();
    await this.messages?.close().catch(() => undefined);
    await Promise.all(this.loops);
    clearInterval(this.ticker);
    // A bounded run ends right after its last iteration is labeled: train what is buffered rather than leave it.
    if (this.options.trainOnStop && this.buffer.length > 0 && !this.crashed) {
      await this.update(this.buffer.splice(0)).catch((err: Error) => this.log(`learner: final update failed: ${err.message}`));
    }
    if (this.stats.updates > this.checkpointedAt && !this.crashed) await this.checkpoint();
    for (const p of this.pending) p.msg.nak();
    this.pending = [];
    await this.accounting.close();
    await this.trainer.close();
  }

  /** Waits (at most `ms`) until the consumer has nothing undelivered and every delivered message was received. */
  private async takeDelivered(ms: number): Promise<void> {
    const decl = consumerFor('learner', SUBJECTS.trajLabeled);
    const end = Date.now() + ms;
    while (Date.now() < end && this.messages !== null) {
      const info = await this.deps.conn.jsm.consumers.info(decl.stream, durableName(decl.role)).catch(() => null);
      if (info === null || (info.num_pending === 0 && info.num_ack_pending <= this.pending.length)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** A crash, for tests: stop at once, write nothing more, ack nothing; unacked messages come back after ack_wait. */
  async crash(): Promise<void> {
    if (this.crashed) return;
    this.crashed = this.stopping = true;
    this.wake();
    clearInterval(this.ticker);
    await this.messages?.close().catch(() => undefined);
    await Promise.all(this.loops);
    this.pending = [];
    await this.accounting.close();
    await this.trainer.close();
  }
}
