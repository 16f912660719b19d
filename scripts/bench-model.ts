// Model engine benchmark: in-run MatMul peak of onnxruntime, training-step time and model-FLOPs utilisation,
// sampling tokens/s at batch 1 and 32 with the KV cache, and peak memory. Ends with one JSON line of the figures.
// Usage: npm run bench:model [-- --layers 4 --width 256 --heads 8 --kv-heads 4 --vocab 2048 --batch 8 --time 128 --threads 0]
import { parseArgs } from 'node:util';
import ort from 'onnxruntime-node';
import { initParameters, parameterShapes, validateDecoderConfig, type ResolvedDecoderConfig } from '../model/decoder.js';
import { Graph, GraphRunner, emit } from '../model/graph/index.js';
import { Sampler } from '../model/sampler.js';
import { ModelSession } from '../model/session.js';

const { values: a } = parseArgs({
  options: {
    layers: { type: 'string', default: '4' }, width: { type: 'string', default: '256' }, heads: { type: 'string', default: '8' },
    'kv-heads': { type: 'string', default: '4' }, vocab: { type: 'string', default: '2048' }, context: { type: 'string', default: '512' },
    batch: { type: 'string', default: '8' }, time: { type: 'string', default: '128' }, threads: { type: 'string', default: '0' },
    repeats: { type: 'string', default: '5' }, 'new-tokens': { type: 'string', default: '48' },
  },
});
const num = (k: keyof typeof a): number => Number(a[k]);
const threads = num('threads');
const repeats = num('repeats');
const config = validateDecoderConfig({
  layers: num('layers'), width: num('width'), heads: num('heads'), kvHeads: num('kv-heads'), vocab: num('vocab'), contextLength: num('context'),
});

const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
async function timeIt(fn: () => Promise<unknown>, n: number): Promise<number> {
  await fn(); // warm-up: first runs allocate arenas and pick kernels
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

interface Peak { gflops: number; n: number; run: () => Promise<unknown> }

/** The fastest square MatMul size; its runner stays open so it can be re-measured between training steps. */
async function matmulPeak(): Promise<Peak> {
  let best: Peak | null = null;
  for (const n of [512, 1024, 2048]) {
    const g = new Graph();
    const x = g.input('a', 'float32', [n, n]), y = g.input('b', 'float32', [n, n]);
    const r = await GraphRunner.create(emit(g, { c: x.matmul(y) }), { intraOpNumThreads: threads });
    const feed = { a: new ort.Tensor('float32', new Float32Array(n * n).fill(0.5), [n, n]), b: new ort.Tensor('float32', new Float32Array(n * n).fill(0.25), [n, n]) };
    const run = (): Promise<unknown> => r.run(feed);
    const ms = await timeIt(run, repeats);
    const gflops = (2 * n ** 3) / ms / 1e6;
    console.log(`matmul ${n}x${n}x${n}: ${ms.toFixed(2)} ms median, ${gflops.toFixed(1)} GFLOP/s`);
    if (!best || gflops > best.gflops) best = { gflops, n, run };
  }
  return best!;
}

/** Model FLOPs of one training step (forward + backward = 3x forward), matmuls and attention, causal counted full. */
function trainFlops(c: ResolvedDecoderConfig, B: number, T: number): number {
  const kv = (c.width / c.heads) * c.kvHeads;
  const perLayer = 2 * c.width * c.width + 2 * c.width * kv + 3 * c.width * c.ffnHidden;
  const matmulParams = c.layers * perLayer + c.vocab * c.width; // tied head; the embedding gather is free
  const forward = 2 * matmulParams * B * T + c.layers * 4 * B * T * T * c.width;
  return 3 * forward;
}

async function main(): Promise<void> {
  let params = 0;
  for (const s of parameterShapes(config).values()) params += s.reduce((p, q) => p * q, 1);
  console.log(`config ${JSON.stringify(config)}; ${(params / 1e6).toFixed(2)}M parameters; threads ${threads || 'all'}`);
  const peak = await matmulPeak();

  const B = num('batch'), T = num('time');
  const weights = initParameters(config, 1);
  const trainSession = await ModelSession.create(config, { intraOpNumThreads: threads, graphs: ['train', 'score'] });
  const tokens = BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 31 + 7) % config.vocab));
  const mask = new Float32Array(B * (T - 1)).fill(1);
  const dlogp = new Float32Array(B * (T - 1)).fill(-1 / (B * (T - 1)));
  // Other processes share these cores, so MatMul and training step are timed in alternation and the utilisation
  // is the median of per-pair ratios: both halves of a pair see about the same load.
  await trainSession.train({ tokens, batch: B, time: T, mask, dlogp }, weights);
  const flops = trainFlops(config, B, T);
  const steps: number[] = [], peaks: number[] = [], ratios: number[] = [];
  for (let i = 0; i < repeats; i++) {
    let t0 = performance.now();
    await peak.run();
    const mm = (2 * peak.n ** 3) / (performance.now() - t0) / 1e6;
    t0 = performance.now();
    await trainSession.train({ tokens, batch: B, time: T, mask, dlogp }, weights);
    const ms = performance.now() - t0;
    steps.push(ms);
    peaks.push(mm);
    ratios.push(flops / ms / 1e6 / mm);
  }
  const stepMs = median(steps);
  const achieved = flops / stepMs / 1e6;
  const mfu = median(ratios);
  console.log(`training step B=${B} T=${T}: ${stepMs.toFixed(1)} ms median, ${(flops / 1e9).toFixed(2)} GFLOP, ${achieved.toFixed(1)} GFLOP/s; `
    + `paired MatMul ${median(peaks).toFixed(1)} GFLOP/s; utilisation ${(mfu * 100).toFixed(1)}% of the in-run MatMul peak`);
  const scoreMs = await timeIt(() => trainSession.score({ tokens, batch: B, time: T, mask }, weights), repeats);
  console.log(`scoring pass (log-probs only) B=${B} T=${T}: ${scoreMs.toFixed(1)} ms median (${((scoreMs / stepMs) * 100).toFixed(0)}% of a training step)`);
  await trainSession.release();

  const sampleSession = await ModelSession.create(config, { intraOpNumThreads: threads, graphs: ['sample'] });
  const newTokens = num('new-tokens');
  const sampling: Record<string, number> = {};
  for (const batch of [1, 32]) {
    const sampler = new Sampler(sampleSession, weights, 1, null, { maxBatch: batch, seed: 1 });
    const run = (): Promise<unknown> => Promise.all(Array.from({ length: batch }, (_, i) =>
      sampler.generate({ prompt: Array.from({ length: 32 }, (_, j) => (i * 13 + j * 7) % config.vocab), maxTokens: newTokens, temperature: 1 })));
    const ms = await timeIt(run, Math.max(2, Math.floor(repeats / 2)));
    sampling[`b${batch}`] = (batch * newTokens) / (ms / 1000);
    console.log(`sampling batch ${batch}: ${sampling[`b${batch}`]!.toFixed(0)} tokens/s (${newTokens} new tokens after a 32-token prompt, prefill included)`);
    await sampler.close();
  }
  await sampleSession.release();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(`peak RSS ${peakRssMb.toFixed(0)} MB`);
  console.log(JSON.stringify({
    bench: 'model', config, params, threads, matmulPeakGflops: +peak.gflops.toFixed(1), pairedMatmulGflops: +median(peaks).toFixed(1), matmulPeakN: peak.n,
    trainStepMs: +stepMs.toFixed(2), trainBatch: B, trainTime: T, trainGflops: +achieved.toFixed(1), trainMfu: +mfu.toFixed(3), scoreMs: +scoreMs.toFixed(2),
    samplingTokensPerSecB1: +sampling['b1']!.toFixed(1), samplingTokensPerSecB32: +sampling['b32']!.toFixed(1), peakRssMb: +peakRssMb.toFixed(0),
  }));
}

await main();
