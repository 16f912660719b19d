// The learner's trainer on its own thread: onnxruntime-node runs a session synchronously on the calling thread, so a
// trainer on the host's main thread stalls every sampler, actor and NATS callback of the process for the length of
// an update. Here the session, the weights and the optimizer live in a worker; the main thread sends rows and gets
// statistics, weight copies and checkpoint state back (trainer-thread.ts is the other side).
import { workerData } from 'node:worker_threads';
import { AdamW, ModelSession, type AdamWOptions, type AdamWState, type ResolvedDecoderConfig } from '../../model/index.js';
import { PolicyTrainer, type PolicyTrainerOptions, type UpdateStats } from './policy-trainer.js';
import type { Role, Row } from './rows.js';
import { serveRpc, Transfer } from '../../runtime/worker-rpc-serve.js';

export interface TrainerWorkerData {
  config: ResolvedDecoderConfig;
  params: Map<string, Float32Array>;
  optimizer: AdamWState | null;
  adamw: AdamWOptions;
  trainer: PolicyTrainerOptions;
  threads: number;
}

export type TrainerCalls = {
  update: { body: { rows: Row[]; norm?: Record<Role, number> }; value: UpdateStats };
  weights: { body: null; value: Map<string, Float32Array> };
  state: { body: null; value: { weights: Map<string, Float32Array>; optimizer: AdamWState } };
  close: { body: null; value: null };
};

/** Sent with ready and every reply: optimizer steps taken so far. */
export type TrainerMeta = number;

/** Fresh buffers (transferred, so the main thread gets them without a second copy). */
function copyOut(weights: Map<string, Float32Array>): Transfer<Map<string, Float32Array>> {
  const value = new Map<string, Float32Array>();
  const transfer: ArrayBuffer[] = [];
  for (const [name, w] of weights) {
    const c = w.slice();
    value.set(name, c);
    transfer.push(c.buffer);
  }
  return new Transfer(value, transfer);
}

const d = workerData as TrainerWorkerData;

await serveRpc<TrainerCalls, PolicyTrainer>({
  async open() {
    const session = await ModelSession.create(d.config, { graphs: ['train', 'score'], intraOpNumThreads: d.threads, allowSpinning: false });
    const optimizer = new AdamW(d.adamw);
    if (d.optimizer) optimizer.loadState(d.optimizer);
    return new PolicyTrainer(session, d.params, optimizer, d.trainer);
  },
  ready: (trainer): TrainerMeta => trainer.optimizer.step,
  // One request at a time, in arrival order: an update must never interleave with a weights copy.
  order: 'one-at-a-time',
  calls: {
    update: (trainer, { rows, norm }) => trainer.update(rows, norm),
    weights: (trainer) => copyOut(trainer.weights),
    state: (trainer) => {
      const w = copyOut(trainer.weights);
      const optimizer = trainer.optimizer.exportState(); // already a deep copy
      const moments = [...optimizer.m.values(), ...optimizer.v.values()].map((a) => a.buffer as ArrayBuffer);
      return new Transfer({ weights: w.value, optimizer }, [...w.transfer, ...moments]);
    },
    close: async (trainer) => {
      await trainer.session.release();
      return null;
    },
  },
  meta: (trainer): TrainerMeta => trainer.optimizer.step,
  closeOn: 'close',
});
