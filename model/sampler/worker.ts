// A batched Sampler on its own thread (the other side is sampler-thread.ts). onnxruntime-node runs each decode step
// synchronously on the calling thread; here the steps run beside the host's main thread, which keeps the actors,
// the sandbox client and NATS moving while the model decodes.
import { workerData } from 'node:worker_threads';
import { Sampler, type SampleOutput, type SamplerOptions } from './sampler.js';
import { ModelSession, type Weights } from '../session.js';
import type { ResolvedDecoderConfig } from '../decoder-config.js';
import { serveRpc } from '../../runtime/worker-rpc-serve.js';
import type { PhaseTotals } from '../../runtime/phase-meter.js';

export interface SamplerWorkerData {
  config: ResolvedDecoderConfig;
  weights: Weights;
  version: number;
  options: SamplerOptions;
  threads: number;
}

export interface SamplerGenerate {
  prompt: number[];
  temperature: number;
  topP: number;
  maxTokens: number;
  cacheKey?: string;
}

export type SamplerCalls = {
  generate: { body: SamplerGenerate; value: SampleOutput };
  close: { body: null; value: null };
};

/** Sent with every reply: decode steps run so far, and the time and work of the model calls. */
export interface SamplerMeta { steps: number; phases: PhaseTotals }

const d = workerData as SamplerWorkerData;

await serveRpc<SamplerCalls, { session: ModelSession; sampler: Sampler }>({
  async open() {
    const session = await ModelSession.create(d.config, { graphs: ['sample'], intraOpNumThreads: d.threads, allowSpinning: false });
    return { session, sampler: new Sampler(session, d.weights, d.version, null, d.options) };
  },
  order: 'concurrent',
  calls: {
    generate: ({ sampler }, r, signal) => sampler.generate({ ...r, signal }),
    close: async ({ sampler, session }) => {
      await sampler.close();
      await session.release();
      return null;
    },
  },
  tells: {
    // The main side already refused versions that do not increase; one that raced a restart is simply older.
    release: ({ sampler }, body) => sampler.release(body as string),
    weights: ({ sampler }, body) => {
      const { weights, version } = body as { weights: Weights; version: number };
      if (version > sampler.policyVersion) sampler.setWeights(weights, version);
    },
  },
  meta: ({ sampler }): SamplerMeta => ({ steps: sampler.steps, phases: sampler.phases() }),
});
