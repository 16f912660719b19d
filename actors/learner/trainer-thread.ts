// What the learner holds of its trainer: either a PolicyTrainer on the calling thread (`loop.learner.host.ownThread:
// false`) or one in a worker thread (the default), behind one interface. On its own thread the learner's
// onnxruntime compute and optimizer step overlap the samplers, actors and NATS traffic of the same process, which
// onnxruntime-node's synchronous `run` otherwise serialises on the main thread.
import type { AdamWState } from '../../model/index.js';
import { LearnerError } from './errors.js';
import type { PolicyTrainer, UpdateStats } from './policy-trainer.js';
import type { Role, Row } from './rows.js';
import type { TrainerCalls, TrainerMeta, TrainerWorkerData } from './trainer-worker.js';
import type { PlainError } from '../../runtime/plain-error.js';
import { WorkerRpc, type RpcFailure } from '../../runtime/worker-rpc.js';

export interface TrainerState {
  weights: Map<string, Float32Array>;
  optimizer: AdamWState;
}

export interface TrainerHandle {
  /** 'thread' when the trainer runs on a worker thread. */
  readonly where: 'thread' | 'main';
  /** Optimizer steps taken so far. */
  readonly step: number;
  /** `norm`: per-role token-mean denominators (PolicyTrainer.update); default the rows' own tokens. */
  update(rows: readonly Row[], norm?: Record<Role, number>): Promise<UpdateStats>;
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
  constructor(readonly trainer: PolicyTrainer) {}

  get step(): number {
    return this.trainer.optimizer.step;
  }

  update(rows: readonly Row[], norm?: Record<Role, number>): Promise<UpdateStats> {
    return this.trainer.update(rows, norm);
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

function threadError(f: RpcFailure): TrainerThreadError {
  const who = "the learner's trainer thread";
  if (f.kind === 'start-failed') return new TrainerThreadError(`${who} could not start: ${f.remote.message}`, f.remote);
  if (f.kind === 'not-ready') return new TrainerThreadError(`${who} sent ${JSON.stringify(f.message).slice(0, 200)} before it was ready`);
  if (f.kind === 'crashed') return new TrainerThreadError(`${who} crashed${f.starting ? ' while starting' : ''}: ${f.cause.message}`, undefined, f.cause);
  if (f.kind === 'exited') return new TrainerThreadError(`${who} exited (code ${f.code})${f.starting ? ' while starting' : f.closing ? ' after close' : ''}`);
  return new TrainerThreadError(`the learner's trainer failed in '${f.op}': ${f.remote.message}`, f.remote);
}

/** A PolicyTrainer in a worker thread (trainer-worker.ts). Requests run there one at a time, in order. */
export class ThreadTrainer implements TrainerHandle {
  readonly where = 'thread' as const;
  private step_ = 0;
  private rpc!: WorkerRpc<TrainerCalls, TrainerThreadError>;

  private constructor() {}

  /** Starts the thread with the weights and optimizer state (copied over) and resolves once its session is built. */
  static async start(data: TrainerWorkerData): Promise<ThreadTrainer> {
    const t = new ThreadTrainer();
    t.rpc = await WorkerRpc.start<TrainerCalls, TrainerThreadError>({
      url: new URL('./trainer-worker.js', import.meta.url), workerData: data, error: threadError,
      onReply: (step, ok) => {
        if (ok) t.step_ = step as TrainerMeta;
      },
    });
    t.step_ = t.rpc.ready as TrainerMeta;
    return t;
  }

  get step(): number {
    return this.step_;
  }

  update(rows: readonly Row[], norm?: Record<Role, number>): Promise<UpdateStats> {
    return this.rpc.request('update', { rows: rows as Row[], ...(norm ? { norm } : {}) });
  }

  weights(): Promise<Map<string, Float32Array>> {
    return this.rpc.request('weights', null);
  }

  state(): Promise<TrainerState> {
    return this.rpc.request('state', null);
  }

  close(): Promise<void> {
    return this.rpc.close('close');
  }

  /** The thread dies as a crash would (tests: a trainer that dies mid-run); see WorkerRpc.kill. */
  kill(): Promise<void> {
    return this.rpc.kill();
  }
}
