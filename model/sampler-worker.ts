// A batched Sampler on its own thread (the other side is sampler-thread.ts). onnxruntime-node runs each decode step
// synchronously on the calling thread; here the steps run beside the host's main thread, which keeps the actors,
// the sandbox client and NATS moving while the model decodes.
import { parentPort, workerData } from 'node:worker_threads';
import { Sampler, type SamplerOptions } from './sampler.js';
import { ModelSession, type Weights } from './session.js';
import type { ResolvedDecoderConfig } from './decoder.js';
import { plainError, type PlainError } from '../runtime/plain-error.js';

export interface SamplerWorkerData {
  config: ResolvedDecoderConfig;
  weights: Weights;
  version: number;
  options: SamplerOptions;
  threads: number;
}

export interface SamplerGenerate {
  op: 'generate';
  id: number;
  prompt: number[];
  temperature: number;
  topP: number;
  maxTokens: number;
}

export type SamplerCall =
  | SamplerGenerate
  | { op: 'abort'; id: number }
  | { op: 'weights'; weights: Weights; version: number }
  | { op: 'close'; id: number };

export type SamplerReply =
  | { op: 'ready' }
  | { op: 'failed'; error: PlainError }
  | { op: 'done'; id: number; ok: true; value: unknown; steps: number }
  | { op: 'done'; id: number; ok: false; error: PlainError; steps: number };

async function main(): Promise<void> {
  const port = parentPort!;
  const d = workerData as SamplerWorkerData;
  let session: ModelSession, sampler: Sampler;
  try {
    session = await ModelSession.create(d.config, { graphs: ['sample'], intraOpNumThreads: d.threads, allowSpinning: false });
    sampler = new Sampler(session, d.weights, d.version, null, d.options);
  } catch (err) {
    port.postMessage({ op: 'failed', error: plainError(err) } satisfies SamplerReply);
    return;
  }
  const aborts = new Map<number, AbortController>();
  port.on('message', (m: SamplerCall) => {
    if (m.op === 'generate') {
      const ac = new AbortController();
      aborts.set(m.id, ac);
      sampler.generate({ prompt: m.prompt, temperature: m.temperature, topP: m.topP, maxTokens: m.maxTokens, signal: ac.signal }).then(
        (value) => port.postMessage({ op: 'done', id: m.id, ok: true, value, steps: sampler.steps } satisfies SamplerReply),
        (err: unknown) => port.postMessage({ op: 'done', id: m.id, ok: false, error: plainError(err), steps: sampler.steps } satisfies SamplerReply),
      ).finally(() => aborts.delete(m.id));
    } else if (m.op === 'abort') {
      aborts.get(m.id)?.abort();
    } else if (m.op === 'weights') {
      // The main side already refused versions that do not increase; one that raced a restart is simply older.
      if (m.version > sampler.policyVersion) sampler.setWeights(m.weights, m.version);
    } else if (m.op === 'close') {
      void sampler.close()
        .then(() => session.release())
        .then(
          () => port.postMessage({ op: 'done', id: m.id, ok: true, value: null, steps: sampler.steps } satisfies SamplerReply),
          (err: unknown) => port.postMessage({ op: 'done', id: m.id, ok: false, error: plainError(err), steps: sampler.steps } satisfies SamplerReply),
        );
    }
  });
  port.postMessage({ op: 'ready' } satisfies SamplerReply);
}

await main();
