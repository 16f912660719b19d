// The learner's trainer on its own thread: onnxruntime-node runs a session synchronously on the calling thread, so a
// trainer on the host's main thread stalls every sampler, actor and NATS callback of the process for the length of
// an update. Here the session, the weights and the optimizer live in a worker; the main thread sends rows (or a
// group's summed gradients) and gets statistics, gradients, weight copies and checkpoint state back (trainer-thread.ts
// is the other side). Every call is one PolicyTrainer method: what the trainer does is written once, there.
import type { PhaseTotals } from '../../runtime/phase-meter.js';
import { workerData } from 'node:worker_threads';
import type { AdamWState } from '../../model/index.js';
import { PolicyTrainer, type AppliedStep, type EpochGradients, type TrainerSetup, type UpdateStats } from './policy-trainer.js';
import type { Role, Row } from './rows.js';
import { serveRpc, Transfer } from '../../runtime/worker-rpc-serve.js';

type State = { weights: Map<string, Float32Array>; optimizer: AdamWState };

export type TrainerCalls = {
  update: { body: { rows: Row[]; norm?: Record<Role, number> }; value: UpdateStats };
  epochGradients: { body: { rows: Row[]; norm: Record<Role, number>; epoch: number }; value: EpochGradients };
  apply: { body: Float32Array; value: AppliedStep };
  hash: { body: null; value: string };
  weights: { body: null; value: Map<string, Float32Array> };
  state: { body: null; value: State };
  load: { body: State; value: null };
  close: { body: null; value: null };
};

/** Sent with ready and every reply: optimizer steps taken so far, and the time and work of its phases. */
export interface TrainerMeta { step: number; phases: PhaseTotals }

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

await serveRpc<TrainerCalls, PolicyTrainer>({
  open: () => PolicyTrainer.open(workerData as TrainerSetup),
  ready: (trainer): TrainerMeta => ({ step: trainer.optimizer.step, phases: trainer.phases() }),
  // One request at a time, in arrival order: an update must never interleave with a weights copy.
  order: 'one-at-a-time',
  calls: {
    update: (trainer, { rows, norm }) => trainer.update(rows, norm),
    epochGradients: async (trainer, { rows, norm, epoch }) => {
      const g = await trainer.epochGradients(rows, norm, epoch); // a fresh vector: moved, not copied
      return new Transfer(g, [g.grads.buffer as ArrayBuffer]);
    },
    apply: (trainer, grads) => trainer.apply(grads),
    hash: (trainer) => trainer.hash(),
    weights: (trainer) => copyOut(trainer.weights),
    state: (trainer) => {
      const w = copyOut(trainer.weights);
      const optimizer = trainer.optimizer.exportState(); // already a deep copy
      const moments = [...optimizer.m.values(), ...optimizer.v.values()].map((a) => a.buffer as ArrayBuffer);
      return new Transfer({ weights: w.value, optimizer }, [...w.transfer, ...moments]);
    },
    load: (trainer, state) => (trainer.load(state), null),
    close: async (trainer) => {
      await trainer.session.release();
      return null;
    },
  },
  meta: (trainer): TrainerMeta => ({ step: trainer.optimizer.step, phases: trainer.phases() }),
  closeOn: 'close',
});
