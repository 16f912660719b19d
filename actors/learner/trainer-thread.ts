// What the learner holds of its trainer: a PolicyTrainer either in a worker thread (`loop.learner.host.ownThread`, the
// default) or on the calling thread, behind one interface that both placements offer whole, so no caller needs to
// know which it holds; placeTrainer() is the one place that chooses. On its own thread the learner's onnxruntime
// compute and optimizer step overlap the samplers, actors and NATS traffic of the same process, which
// onnxruntime-node's synchronous `run` otherwise serialises on the main thread.
import type { PhaseTotals } from '../../runtime/phase-meter.js';
import { addPhaseSource } from '../../runtime/work-profile.js';
import type { AdamWState } from '../../model/index.js';
import { LearnerError } from './errors.js';
import { PolicyTrainer, type AppliedStep, type EpochGradients, type TrainerSetup, type UpdateStats } from './policy-trainer.js';
import type { Role, Row } from './rows.js';
import type { TrainerCalls, TrainerMeta } from './trainer-worker.js';
import type { PlainError } from '../../runtime/plain-error.js';
import { WorkerRpc, type RpcFailure } from '../../runtime/worker-rpc.js';

export interface TrainerState {
  weights: Map<string, Float32Array>;
  optimizer: AdamWState;
}

export interface TrainerHandle {
  /** 'thread' when the trainer runs on a worker thread (for logs and tests: callers never need it). */
  readonly where: 'thread' | 'main';
  /** Optimizer steps taken so far. */
  readonly step: number;
  /** Optimizer steps per update (its options' `epochs`): a learner group exchanges one gradient per epoch. */
  readonly epochs: number;
  /** Elements of the parameter vector (param-vector.ts): the length of epochGradients' gradients and of apply's. */
  readonly size: number;
  /** `norm`: per-role token-mean denominators (PolicyTrainer.update); default the rows' own tokens. */
  update(rows: readonly Row[], norm?: Record<Role, number>): Promise<UpdateStats>;
  /** One epoch's gradients, not applied (PolicyTrainer.epochGradients): epochs after 0 pass the same rows again. */
  epochGradients(rows: readonly Row[], norm: Record<Role, number>, epoch: number): Promise<EpochGradients>;
  /** One optimizer step with a gradient vector; `grads` is handed over (its buffer may move to the trainer's thread). */
  apply(grads: Float32Array): Promise<AppliedStep>;
  /** sha256 of the weights (param-vector.ts weightsHash). */
  hash(): Promise<string>;
  /** The current weights (a copy when on a thread; do not modify). */
  weights(): Promise<Map<string, Float32Array>>;
  /** Weights and optimizer state for a checkpoint. */
  state(): Promise<TrainerState>;
  /** Replaces the weights and optimizer state (a learner group member taking the group's). */
  load(state: TrainerState): Promise<void>;
  /** Time, tokens and FLOPs of its scoring, training and optimizer phases so far (on a thread: as of its latest reply). */
  phases(): PhaseTotals;
  close(): Promise<void>;
}

/** The trainer `s` describes, on a worker thread (`ownThread`) or on the calling thread. */
export async function placeTrainer(s: TrainerSetup, ownThread: boolean): Promise<TrainerHandle> {
  return ownThread ? ThreadTrainer.start(s) : new LocalTrainer(await PolicyTrainer.open(s));
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
  readonly size: number;
  /** Takes its phases out of the host's profile (runtime/work-profile.ts). */
  private readonly unprofile: () => void;
  constructor(readonly trainer: PolicyTrainer) {
    this.size = [...trainer.weights.values()].reduce((n, w) => n + w.length, 0);
    this.unprofile = addPhaseSource(() => trainer.phases());
  }

  get step(): number {
    return this.trainer.optimizer.step;
  }

  get epochs(): number {
    return this.trainer.options.epochs;
  }

  update(rows: readonly Row[], norm?: Record<Role, number>): Promise<UpdateStats> {
    return this.trainer.update(rows, norm);
  }

  epochGradients(rows: readonly Row[], norm: Record<Role, number>, epoch: number): Promise<EpochGradients> {
    return this.trainer.epochGradients(rows, norm, epoch);
  }

  async apply(grads: Float32Array): Promise<AppliedStep> {
    return this.trainer.apply(grads);
  }

  async hash(): Promise<string> {
    return this.trainer.hash();
  }

  async weights(): Promise<Map<string, Float32Array>> {
    return this.trainer.weights;
  }

  async state(): Promise<TrainerState> {
    return { weights: this.trainer.weights, optimizer: this.trainer.optimizer.exportState() };
  }

  async load(state: TrainerState): Promise<void> {
    this.trainer.load(state);
  }

  phases(): PhaseTotals {
    return this.trainer.phases();
  }

  close(): Promise<void> {
    this.unprofile();
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
  readonly epochs: number;
  readonly size: number;
  private step_ = 0;
  private phases_: PhaseTotals = {};
  private unprofile: () => void = () => undefined;
  private rpc!: WorkerRpc<TrainerCalls, TrainerThreadError>;

  private constructor(s: TrainerSetup) {
    this.epochs = s.trainer.epochs;
    this.size = [...s.params.values()].reduce((n, w) => n + w.length, 0);
  }

  /** Starts the thread with the weights and optimizer state (copied over) and resolves once its session is built. */
  static async start(data: TrainerSetup): Promise<ThreadTrainer> {
    const t = new ThreadTrainer(data);
    t.rpc = await WorkerRpc.start<TrainerCalls, TrainerThreadError>({
      url: new URL('./trainer-worker.js', import.meta.url), workerData: data, error: threadError,
      onReply: (meta) => {
        const m = meta as TrainerMeta;
        t.step_ = m.step;
        t.phases_ = m.phases;
      },
    });
    t.step_ = (t.rpc.ready as TrainerMeta).step;
    t.unprofile = addPhaseSource(() => t.phases_);
    return t;
  }

  get step(): number {
    return this.step_;
  }

  phases(): PhaseTotals {
    return this.phases_;
  }

  update(rows: readonly Row[], norm?: Record<Role, number>): Promise<UpdateStats> {
    return this.rpc.request('update', { rows: rows as Row[], ...(norm ? { norm } : {}) });
  }

  epochGradients(rows: readonly Row[], norm: Record<Role, number>, epoch: number): Promise<EpochGradients> {
    return this.rpc.request('epochGradients', { rows: rows as Row[], norm, epoch });
  }

  apply(grads: Float32Array): Promise<AppliedStep> {
    // Moved, not copied, when the vector is its buffer's whole.
    const whole = grads.byteOffset === 0 && grads.byteLength === grads.buffer.byteLength;
    return this.rpc.request('apply', grads, whole ? { transfer: [grads.buffer as ArrayBuffer] } : {});
  }

  hash(): Promise<string> {
    return this.rpc.request('hash', null);
  }

  weights(): Promise<Map<string, Float32Array>> {
    return this.rpc.request('weights', null);
  }

  state(): Promise<TrainerState> {
    return this.rpc.request('state', null);
  }

  load(state: TrainerState): Promise<void> {
    return this.rpc.request('load', state).then(() => undefined);
  }

  close(): Promise<void> {
    this.unprofile();
    return this.rpc.close('close');
  }

  /** The thread dies as a crash would (tests: a trainer that dies mid-run); see WorkerRpc.kill. */
  kill(): Promise<void> {
    return this.rpc.kill();
  }
}
