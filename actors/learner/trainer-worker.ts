// The learner's trainer on its own thread: onnxruntime-node runs a session synchronously on the calling thread, so a
// trainer on the host's main thread stalls every sampler, actor and NATS callback of the process for the length of
// an update. Here the session, the weights and the optimizer live in a worker; the main thread sends rows and gets
// statistics, weight copies and checkpoint state back (trainer-thread.ts is the other side).
import { parentPort, workerData } from 'node:worker_threads';
import { AdamW, ModelSession, type AdamWOptions, type AdamWState, type ResolvedDecoderConfig } from '../../model/index.js';
import { PolicyTrainer, type PolicyTrainerOptions } from './policy-trainer.js';
import type { Row } from './rows.js';
import { plainError, type PlainError } from '../../runtime/plain-error.js';

export interface TrainerWorkerData {
  config: ResolvedDecoderConfig;
  params: Map<string, Float32Array>;
  optimizer: AdamWState | null;
  adamw: AdamWOptions;
  trainer: PolicyTrainerOptions;
  threads: number;
}

export type TrainerCall = { op: 'update'; rows: Row[] } | { op: 'weights' } | { op: 'state' } | { op: 'close' };
export type TrainerRequest = TrainerCall & { id: number };

export type TrainerReply =
  | { id: 0; op: 'ready'; step: number }
  | { id: 0; op: 'failed'; error: PlainError }
  | { id: number; ok: true; step: number; value: unknown }
  | { id: number; ok: false; error: PlainError };

/** Fresh buffers (transferred, so the main thread gets them without a second copy). */
function copyOut(weights: Map<string, Float32Array>): { value: Map<string, Float32Array>; transfer: ArrayBuffer[] } {
  const value = new Map<string, Float32Array>();
  const transfer: ArrayBuffer[] = [];
  for (const [name, w] of weights) {
    const c = w.slice();
    value.set(name, c);
    transfer.push(c.buffer);
  }
  return { value, transfer };
}

async function main(): Promise<void> {
  const port = parentPort!;
  const d = workerData as TrainerWorkerData;
  let trainer: PolicyTrainer;
  try {
    const session = await ModelSession.create(d.config, { graphs: ['train', 'score'], intraOpNumThreads: d.threads, allowSpinning: false });
    const optimizer = new AdamW(d.adamw);
    if (d.optimizer) optimizer.loadState(d.optimizer);
    trainer = new PolicyTrainer(session, d.params, optimizer, d.trainer);
  } catch (err) {
    port.postMessage({ id: 0, op: 'failed', error: plainError(err) } satisfies TrainerReply);
    return;
  }
  port.postMessage({ id: 0, op: 'ready', step: trainer.optimizer.step } satisfies TrainerReply);
  // One request at a time, in arrival order: an update must never interleave with a weights copy.
  let chain = Promise.resolve();
  port.on('message', (req: TrainerRequest) => {
    chain = chain.then(async () => {
      try {
        let value: unknown = null;
        let transfer: ArrayBuffer[] = [];
        if (req.op === 'update') value = await trainer.update(req.rows);
        else if (req.op === 'weights') ({ value, transfer } = copyOut(trainer.weights));
        else if (req.op === 'state') {
          const w = copyOut(trainer.weights);
          const optimizer = trainer.optimizer.exportState(); // already a deep copy
          value = { weights: w.value, optimizer };
          transfer = [...w.transfer, ...[...optimizer.m.values(), ...optimizer.v.values()].map((a) => a.buffer as ArrayBuffer)];
        } else if (req.op === 'close') {
          await trainer.session.release();
        }
        port.postMessage({ id: req.id, ok: true, step: trainer.optimizer.step, value } satisfies TrainerReply, transfer);
        if (req.op === 'close') port.close();
      } catch (err) {
        port.postMessage({ id: req.id, ok: false, error: plainError(err) } satisfies TrainerReply);
      }
    });
  });
}

await main();
