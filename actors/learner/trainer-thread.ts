// What the learner holds of its trainer: either a PolicyTrainer on the calling thread (`loop.learner.ownThread:
// false`) or one in a worker thread (the default), behind one interface. On its own thread the learner's
// onnxruntime compute and optimizer step overlap the samplers, actors and NATS traffic of the same process, which
// onnxruntime-node's synchronous `run` otherwise serialises on the main thread.
import { Worker } from 'node:worker_threads';
import type { AdamWState } from '../../model/index.js';
import { LearnerError } from './errors.js';
import type { PolicyTrainer, UpdateStats } from './policy-trainer.js';
import type { Row } from './rows.js';
import type { TrainerCall, TrainerReply, TrainerWorkerData } from './trainer-worker.js';
import type { PlainError } from '../../runtime/plain-error.js';

export interface TrainerState {
  weights: Map<string, Float32Array>;
  optimizer: AdamWState;
}

export interface TrainerHandle {
  /** 'thread' when the trainer runs on a worker thread. */
  readonly where: 'thread' | 'main';
  /** Optimizer steps taken so far. */
  readonly step: number;
  update(rows: readonly Row[]): Promise<UpdateStats>;
  /** The current weights (a copy when on a thread; do not modify). */
  weights(): Promise<Map<string, Float32Array>>;
  /** Weights and optimizer state for a checkpoint. */
  state(): Promise<TrainerState>;
  close(): Promise<void>;
}

/** The trainer thread failed: it could not start, an update threw there, or the thread died. */
export class TrainerThreadError extends LearnerError {
  constructor(message: string, readonly remote?: PlainError, cause?: unknown) {
    super(message, { code: 'LEARNER_TRAINER_THREAD', data: remote ? { remoteName: remote.name, remoteCode: remote.code } : {}, cause });
  }
}

export const isTrainerThreadError = (e: unknown): e is TrainerThreadError => e instanceof TrainerThreadError;

/** A PolicyTrainer on the calling thread. */
export class LocalTrainer implements TrainerHandle {
  readonly where = 'main' as const;
  constructor(private readonly trainer: PolicyTrainer) {}

  get step(): number {
    return this.trainer.optimizer.step;
  }

  update(rows: readonly Row[]): Promise<UpdateStats> {
    return this.trainer.update(rows);
  }

  async weights(): Promise<Map<string, Float32Array>> {
    return this.trainer.weights;
  }

  async state(): Promise<TrainerState> {
    return { weights: this.trainer.weights, optimizer: this.trainer.optimizer.exportState() };
  }

  close(): Promise<void> {
    return this.trainer.session.release();
  }
}

interface Waiter {
  op: TrainerCall['op'];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** A PolicyTrainer in a worker thread (trainer-worker.ts). Requests run there one at a time, in order. */
export class ThreadTrainer implements TrainerHandle {
  readonly where = 'thread' as const;
  private step_: number;
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();
  private dead: TrainerThreadError | null = null;
  private closing = false;

  private constructor(private readonly worker: Worker, step: number) {
    this.step_ = step;
    worker.on('message', (m: TrainerReply) => this.reply(m));
    worker.on('error', (err) => this.die(new TrainerThreadError(`the learner's trainer thread crashed: ${err.message}`, undefined, err)));
    worker.on('exit', (code) => this.die(new TrainerThreadError(`the learner's trainer thread exited (code ${code})${this.closing ? ' after close' : ''}`)));
  }

  /** Starts the thread with the weights and optimizer state (copied over) and resolves once its session is built. */
  static start(data: TrainerWorkerData): Promise<ThreadTrainer> {
    const worker = new Worker(new URL('./trainer-worker.js', import.meta.url), { workerData: data });
    return new Promise((resolve, reject) => {
      // Only our own listeners come off: removeAllListeners() would also drop the hooks by which Worker keeps
      // its message port referenced, and replies would stop arriving.
      const off = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const fail = (err: Error): void => {
        off();
        void worker.terminate();
        reject(err);
      };
      const onMessage = (m: TrainerReply): void => {
        off();
        if ('op' in m && m.op === 'ready') resolve(new ThreadTrainer(worker, m.step));
        else if ('op' in m && m.op === 'failed') fail(new TrainerThreadError(`the learner's trainer thread could not start: ${m.error.message}`, m.error));
        else fail(new TrainerThreadError(`the learner's trainer thread sent ${JSON.stringify(m).slice(0, 200)} before it was ready`));
      };
      const onError = (err: Error): void => fail(new TrainerThreadError(`the learner's trainer thread crashed while starting: ${err.message}`, undefined, err));
      const onExit = (code: number): void => fail(new TrainerThreadError(`the learner's trainer thread exited (code ${code}) while starting`));
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  get step(): number {
    return this.step_;
  }

  update(rows: readonly Row[]): Promise<UpdateStats> {
    return this.call({ op: 'update', rows: rows as Row[] }) as Promise<UpdateStats>;
  }

  weights(): Promise<Map<string, Float32Array>> {
    return this.call({ op: 'weights' }) as Promise<Map<string, Float32Array>>;
  }

  state(): Promise<TrainerState> {
    return this.call({ op: 'state' }) as Promise<TrainerState>;
  }

  async close(): Promise<void> {
    if (this.dead !== null || this.closing) return;
    this.closing = true;
    await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  /** Ends the thread at once (tests: a trainer that dies mid-run). */
  kill(): Promise<number> {
    return this.worker.terminate();
  }

  private call(req: TrainerCall): Promise<unknown> {
    if (this.dead !== null) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiters.set(id, { op: req.op, resolve, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  private reply(m: TrainerReply): void {
    const w = this.waiters.get(m.id);
    if (w === undefined || !('ok' in m)) return;
    this.waiters.delete(m.id);
    this.step_ = m.ok ? m.step : this.step_;
    if (m.ok) w.resolve(m.value);
    else w.reject(new TrainerThreadError(`the learner's trainer failed in '${w.op}': ${m.error.message}`, m.error));
  }

  private die(err: TrainerThreadError): void {
    this.dead ??= err;
    for (const w of this.waiters.values()) w.reject(this.dead);
    this.waiters.clear();
  }
}
