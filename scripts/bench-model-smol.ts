// bench:model's last section: the engine alone on a SmolLM-135M-shaped model (random weights of that shape), the cost
// of a user's first real run: training-step and sampling tokens/s, and peak memory.
import { initParameters, parameterShapes, validateDecoderConfig } from '../model/index.js';
import { ModelSession } from '../model/index.js';
import { Sampler } from '../model/sampler/index.js';

/** HuggingFaceTB/SmolLM-135M's config.json, as the decoder takes it. */
export const SMOL_135M = { layers: 30, width: 576, heads: 9, kvHeads: 3, ffnHidden: 1536, vocab: 49152, contextLength: 2048, normEps: 1e-5, ropeTheta: 10000 } as const;

export interface SmolFigures {
  config: typeof SMOL_135M;
  params: number;
  trainBatch: number;
  trainTime: number;
  trainStepMs: number;
  trainTokensPerSec: number;
  samplingTokensPerSecB1: number;
  samplingTokensPerSecB32: number;
  newTokens: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;

export async function benchSmolShape(o: { threads: number; allowSpinning: boolean; repeats: number }, log: (line: string) => void): Promise<SmolFigures> {
  const rssBeforeMb = process.resourceUsage().maxRSS / 1024;
  const c = validateDecoderConfig(SMOL_135M);
  let params = 0;
  for (const s of parameterShapes(c).values()) params += s.reduce((p, q) => p * q, 1);
  log(`SmolLM-135M shape (${(params / 1e6).toFixed(1)}M parameters, random weights): engine only`);
  const weights = initParameters(c, 1);
  const B = 4, T = 128, newTokens = 16;
  const s = await ModelSession.create(c, { intraOpNumThreads: o.threads, allowSpinning: o.allowSpinning, graphs: ['train'] });
  const tokens = BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 31 + 7) % c.vocab));
  const ones = new Float32Array(B * (T - 1)).fill(1);
  const batch = { tokens, batch: B, time: T, mask: ones, dlogp: ones.map(() => -1 / (B * (T - 1))) };
  await s.train(batch, weights); // warm-up
  const steps: number[] = [];
  for (let i = 0; i < o.repeats; i++) {
    const t0 = performance.now();
    await s.train(batch, weights);
    steps.push(performance.now() - t0);
  }
  await s.release();
  const trainStepMs = median(steps);
  log(`  training step B=${B} T=${T} (forward + backward): ${trainStepMs.toFixed(0)} ms median of ${steps.length}, ${((B * T) / (trainStepMs / 1000)).toFixed(0)} tokens/s`);
  const ss = await ModelSession.create(c, { intraOpNumThreads: o.threads, allowSpinning: o.allowSpinning, graphs: ['sample'] });
  const sampling: Record<number, number> = {};
  for (const rows of [1, 32]) {
    const sampler = new Sampler(ss, weights, 1, null, { maxBatch: rows, seed: 1 });
    const prompts = Array.from({ length: rows }, (_, i) => Array.from({ length: 32 }, (_, j) => (i * 13 + j * 7) % c.vocab));
    const go = (): Promise<unknown> => Promise.all(prompts.map((prompt) => sampler.generate({ prompt, maxTokens: newTokens, temperature: 1 })));
    await go();
    const ms: number[] = [];
    for (let i = 0; i < o.repeats; i++) {
      const t0 = performance.now();
      await go();
      ms.push(performance.now() - t0);
    }
    sampling[rows] = (rows * newTokens) / (median(ms) / 1000);
    log(`  sampling batch ${rows}: ${sampling[rows]!.toFixed(1)} tokens/s (${newTokens} new tokens after a 32-token prompt)`);
    await sampler.close();
  }
  await ss.release();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  log(`  peak RSS ${peakRssMb.toFixed(0)} MB (process peak; ${rssBeforeMb.toFixed(0)} MB before this section)`);
  return {
    config: SMOL_135M, params, trainBatch: B, trainTime: T, trainStepMs: +trainStepMs.toFixed(0), trainTokensPerSec: +((B * T) / (trainStepMs / 1000)).toFixed(1),
    samplingTokensPerSecB1: +sampling[1]!.toFixed(1), samplingTokensPerSecB32: +sampling[32]!.toFixed(1), newTokens, rssBeforeMb: +rssBeforeMb.toFixed(0), peakRssMb: +peakRssMb.toFixed(0),
  };
}
