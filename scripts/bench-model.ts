// Model engine benchmark against the same decoder written with @tensorflow/tfjs (bench/) and with PyTorch on CPU
// (bench/torch_baseline.py, same weights through a Hugging Face export), side by side in one run: training-step time,
// sampling tokens/s at batch 1 and 32 with the KV cache, the engine's utilisation of the in-run onnxruntime MatMul
// peak, agreement of the implementations, and peak memory; then the engine alone on a SmolLM-135M-shaped model.
// Ends with one JSON line.
// Usage: npm run bench:model [-- --layers 4 --width 256 --heads 8 --kv-heads 4 --vocab 2048 --batch 8 --time 128 --threads 0
//   --repeats 5 --new-tokens 48 --spin 0|1 --tfjs auto|wasm|cpu|off --tfjs-threads N --torch auto|off --smol 1|0 --shards 2 (1 = off)]; each flag
//   also reads BENCH_MODEL_<FLAG> (e.g. BENCH_MODEL_REPEATS=3 BENCH_MODEL_TIME=64 for a shorter run).
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ort from 'onnxruntime-node';
import { loadTfjsBaseline, type TfjsBaseline, type TfjsBackendName, type TfjsDecoder } from '../bench/tfjs-baseline.js';
import { AdamW, DEFAULT_MODEL_SESSION_OPTIONS, ModelSession, adamwLoopUpdate, initParameters, parameterShapes, saveHfModel, sumOfSquaresLoop, trainFlops, validateDecoderConfig, type ResolvedDecoderConfig } from '../model/index.js';
import { Graph, GraphRunner, emit } from '../model/graph/index.js';
import { Sampler, pickToken, seededUniform } from '../model/sampler/index.js';
import { runTorchBaseline, type TorchBaselineResult } from '../bench/torch-baseline.js';
import { benchSmolShape, type SmolFigures } from './bench-model-smol.js';
import { benchShards, type ShardFigures } from './bench-model-shards.js';

const FLAGS = {
  layers: '4', width: '256', heads: '8', 'kv-heads': '4', vocab: '2048', context: '512', batch: '8', time: '128', threads: '0',
  repeats: '5', 'new-tokens': '48', spin: '0', tfjs: 'auto', 'tfjs-threads': '0', torch: 'auto', smol: '1', shards: '2',
} as const;
type Flag = keyof typeof FLAGS;
const envDefault = (f: Flag): string => process.env[`BENCH_MODEL_${f.toUpperCase().replace('-', '_')}`] ?? FLAGS[f];
const { values: a } = parseArgs({
  options: Object.fromEntries(Object.keys(FLAGS).map((f) => [f, { type: 'string', default: envDefault(f as Flag) }])) as Record<Flag, { type: 'string'; default: string }>,
});
const num = (k: Flag): number => Number(a[k]);
const threads = num('threads');
/** onnxruntime's allowSpinning; off by default as in the engine: on shared cores idle threads spinning compete with the work. */
const allowSpinning = a.spin === '1';
const repeats = num('repeats');
const tfjsMode = a.tfjs as TfjsBackendName | 'off';
const config = validateDecoderConfig({
  layers: num('layers'), width: num('width'), heads: num('heads'), kvHeads: num('kv-heads'), vocab: num('vocab'), contextLength: num('context'),
});

const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!;
const round = (x: number, d = 2): number => +x.toFixed(d);
/** Both implementations share this heap: with --expose-gc each timed run starts collected, so neither pays for the other's garbage. */
const collect = (globalThis as { gc?: () => void }).gc ?? ((): void => {});
const elapsed = async (fn: () => Promise<unknown>): Promise<number> => {
  collect();
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
async function timeIt(fn: () => Promise<unknown>, n: number): Promise<number> {
  await fn(); // warm-up: first runs allocate arenas and pick kernels
  const ms: number[] = [];
  for (let i = 0; i < n; i++) ms.push(await elapsed(fn));
  return median(ms);
}
const maxAbsDiff = (x: ArrayLike<number>, y: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  return m;
};

interface Peak { gflops: number; n: number; run: () => Promise<unknown> }

/** The fastest square MatMul size; its runner stays open so it can be re-measured between training steps. */
async function matmulPeak(): Promise<Peak> {
  let best: Peak | null = null;
  for (const n of [512, 1024, 2048]) {
    const g = new Graph();
    const x = g.input('a', 'float32', [n, n]), y = g.input('b', 'float32', [n, n]);
    const r = await GraphRunner.create(emit(g, { c: x.matmul(y) }), { intraOpNumThreads: threads, allowSpinning });
    const feed = { a: new ort.Tensor('float32', new Float32Array(n * n).fill(0.5), [n, n]), b: new ort.Tensor('float32', new Float32Array(n * n).fill(0.25), [n, n]) };
    const run = (): Promise<unknown> => r.run(feed);
    const ms = await timeIt(run, repeats);
    const gflops = (2 * n ** 3) / ms / 1e6;
    console.log(`matmul ${n}x${n}x${n}: ${ms.toFixed(2)} ms median, ${gflops.toFixed(1)} GFLOP/s`);
    if (!best || gflops > best.gflops) best = { gflops, n, run };
  }
  return best!;
}

async function loadBaseline(): Promise<TfjsBaseline | null> {
  if (tfjsMode === 'off') return null;
  try {
    const b = await loadTfjsBaseline(config, { backend: tfjsMode, threads: num('tfjs-threads') });
    const probes = Object.entries(b.choice.probes).map(([k, v]) => `${k} ${v === null ? 'failed' : `${v.toFixed(0)} ms`}`).join(', ');
    console.log(`tfjs baseline: backend ${b.choice.backend}, ${b.choice.threads} thread(s)${probes ? `; chosen by a probe on this model: ${probes}` : ''}`
      + `${b.choice.notes.length ? `; ${b.choice.notes.join('; ')}` : ''}`);
    return b;
  } catch (err) {
    console.log(`tfjs baseline unavailable: ${(err as Error).message}`);
    return null;
  }
}

const speedup = (engineMs: number[], tfjsMs: number[]): number => median(engineMs.map((e, i) => tfjsMs[i]! / e));
const pairs = (engineMs: number[], tfjsMs: number[]): string => engineMs.map((e, i) => `${e.toFixed(0)}/${tfjsMs[i]!.toFixed(0)}`).join(' ');
const roundsOf = (engineMs: number[], tfjsMs: number[]): { engineMs: number[]; tfjsMs: number[] } => ({ engineMs: engineMs.map((x) => round(x, 1)), tfjsMs: tfjsMs.map((x) => round(x, 1)) });

async function main(): Promise<void> {
  const loadStart = loadavg()[0]!;
  let params = 0;
  for (const s of parameterShapes(config).values()) params += s.reduce((p, q) => p * q, 1);
  console.log(`config ${JSON.stringify(config)}; ${(params / 1e6).toFixed(2)}M parameters; threads ${threads || 'all'}${allowSpinning ? ' (spinning)' : ' (no spinning)'}, decode steps of <= ${DEFAULT_MODEL_SESSION_OPTIONS.singleThreadDecodeRows} rows on 1; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const peak = await matmulPeak();

  const B = num('batch'), T = num('time');
  const weights = initParameters(config, 1);
  const shapes = parameterShapes(config);
  const trainSession = await ModelSession.create(config, { intraOpNumThreads: threads, allowSpinning, graphs: ['train', 'score'] });
  const tokens = BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 31 + 7) % config.vocab));
  const mask = new Float32Array(B * (T - 1)).fill(1);
  const dlogp = new Float32Array(B * (T - 1)).fill(-1 / (B * (T - 1)));
  const batch = { tokens, batch: B, time: T, mask, dlogp };
  const engineStep = await trainSession.train(batch, weights);
  const rssBeforeBaselineMb = process.resourceUsage().maxRSS / 1024;

  const baseline = await loadBaseline();
  const ids = Int32Array.from(tokens, Number);
  let tfjs: TfjsDecoder | null = null;
  const agreement: Record<string, number> = {};
  if (baseline) {
    tfjs = baseline.createDecoder(shapes, weights as Map<string, Float32Array>);
    // The same model: log-probs against the engine's scoring pass, gradients against its training step, and the
    // baseline's own KV-cache path against its full forward.
    const engineScore = await trainSession.score(batch, weights);
    agreement['logpMaxAbsDiff'] = maxAbsDiff(engineScore.logp, await tfjs.logp(ids, B, T));
    const step = await tfjs.trainStep(ids, B, T, mask, dlogp);
    let gradDiff = 0, gradMax = 0;
    for (const [name, g] of engineStep.grads) {
      gradDiff = Math.max(gradDiff, maxAbsDiff(g, step.grads.get(name)!));
      gradMax = Math.max(gradMax, maxAbsDiff(g, new Float32Array(g.length)));
    }
    agreement['gradMaxAbsDiff'] = gradDiff;
    agreement['gradMaxRelDiff'] = gradDiff / gradMax;
    agreement['tfjsDecodeVsForwardMaxAbsDiff'] = await tfjs.decodeParity(Array.from(ids.subarray(0, Math.min(T, 48))), 16);
    console.log(`agreement: log-probs max |engine - tfjs| ${agreement['logpMaxAbsDiff']!.toExponential(2)} over ${B}x${T - 1}; `
      + `gradients max abs diff ${gradDiff.toExponential(2)} (${agreement['gradMaxRelDiff']!.toExponential(2)} of the largest); `
      + `tfjs KV-cache decode vs its full forward ${agreement['tfjsDecodeVsForwardMaxAbsDiff']!.toExponential(2)}`);
  }

  // Other processes share these cores, so MatMul, engine step and tfjs step are timed in alternation: per-round
  // ratios compare runs that saw about the same load.
  const flops = trainFlops(config, B, T);
  const steps: number[] = [], peaks: number[] = [], ratios: number[] = [], tfjsSteps: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const mm = (2 * peak.n ** 3) / (await elapsed(peak.run)) / 1e6;
    const ms = await elapsed(() => trainSession.train(batch, weights));
    steps.push(ms);
    peaks.push(mm);
    ratios.push(flops / ms / 1e6 / mm);
    if (tfjs) tfjsSteps.push(await elapsed(() => tfjs.trainStep(ids, B, T, mask, dlogp)));
  }
  const stepMs = median(steps);
  const achieved = flops / stepMs / 1e6;
  const mfu = median(ratios);
  console.log(`training step B=${B} T=${T}: ${stepMs.toFixed(1)} ms median, ${(flops / 1e9).toFixed(2)} GFLOP, ${achieved.toFixed(1)} GFLOP/s; `
    + `paired MatMul ${median(peaks).toFixed(1)} GFLOP/s; utilisation ${(mfu * 100).toFixed(1)}% of the in-run MatMul peak`);
  const trainSpeedup = tfjs ? speedup(steps, tfjsSteps) : null;
  if (tfjs) {
    console.log(`  tfjs training step: ${median(tfjsSteps).toFixed(1)} ms median (${(flops / median(tfjsSteps) / 1e6).toFixed(1)} GFLOP/s); `
      + `engine speed-up ${trainSpeedup!.toFixed(2)}x (median of per-round ratios; ratio of medians ${(median(tfjsSteps) / stepMs).toFixed(2)}x; `
      + `rounds engine/tfjs ms: ${pairs(steps, tfjsSteps)})`);
  }
  // The optimizer update the training step is followed by (PyTorch's step below includes its AdamW).
  const adam = new AdamW(), adamWeights = new Map([...weights].map(([n, w]) => [n, Float32Array.from(w)]));
  const adamMs = await timeIt(async () => adam.update(adamWeights, engineStep.grads as Map<string, Float32Array>), repeats);
  // The float64 loop the SIMD kernel replaced, on the same gradients: the optimizer's before/after in one run.
  const loopState = [...adamWeights].map(([n, w]) => ({ p: w.slice(), g: engineStep.grads.get(n) as Float32Array, m: new Float32Array(w.length), v: new Float32Array(w.length) }));
  const adamLoopMs = await timeIt(async () => {
    let sq = 0;
    for (const x of loopState) sq += sumOfSquaresLoop(x.g);
    const clipScale = Math.min(1, 1 / (Math.sqrt(sq) + 1e-6));
    for (const x of loopState) adamwLoopUpdate(x.p, x.g, x.m, x.v, { clipScale, beta1: 0.9, beta2: 0.95, shrink: 1 - 1e-5, stepSize: 1e-3, bc2Sqrt: 0.3, eps: 1e-8 });
  }, repeats);
  console.log(`AdamW update (${(params / 1e6).toFixed(2)}M parameters): WebAssembly SIMD ${adamMs.toFixed(1)} ms median, the float64 loop it replaced ${adamLoopMs.toFixed(1)} ms (${(adamLoopMs / adamMs).toFixed(2)}x)`);
  const scoreMs = await timeIt(() => trainSession.score(batch, weights), repeats);
  const engineScore = await trainSession.score(batch, weights);
  console.log(`scoring pass (log-probs only) B=${B} T=${T}: ${scoreMs.toFixed(1)} ms median (${((scoreMs / stepMs) * 100).toFixed(0)}% of a training step)`);
  await trainSession.release();

  const sampleSession = await ModelSession.create(config, { intraOpNumThreads: threads, allowSpinning, graphs: ['sample'] });
  // The Sampler bakes each weights version into its decode graph before that version's first decode step; timed
  // here once so that the cost is on record (it recurs per version, not per request).
  const t0 = performance.now();
  await sampleSession.bakeWeights(weights);
  const bakeMs = performance.now() - t0;
  console.log(`baking the weights into the decode graph: ${bakeMs.toFixed(0)} ms (once per weights version; the Sampler does it before that version's first decode step)`);
  const newTokens = num('new-tokens');
  const sampling: Record<string, number> = {}, tfjsSampling: Record<string, number> = {}, samplingSpeedup: Record<string, number> = {};
  const samplingRounds: Record<string, ReturnType<typeof roundsOf>> = {};
  let shards: ShardFigures | null = null;
  for (const rows of [1, 32]) {
    const prompts = Array.from({ length: rows }, (_, i) => Array.from({ length: 32 }, (_, j) => (i * 13 + j * 7) % config.vocab));
    const sampler = new Sampler(sampleSession, weights, 1, null, { maxBatch: rows, seed: 1 });
    const engineRun = (): Promise<unknown> => Promise.all(prompts.map((prompt) => sampler.generate({ prompt, maxTokens: newTokens, temperature: 1 })));
    // The baseline draws with the engine's own token picker (temperature 1), so the per-token host work matches.
    const uniform = seededUniform(1);
    const pick = (logp: Float32Array): number => pickToken(logp, { temperature: 1, topP: 1 }, uniform).token;
    const tfjsRun = (): Promise<unknown> => tfjs!.generate(prompts, newTokens, pick);
    await engineRun();
    if (tfjs) await tfjsRun();
    const engineMs: number[] = [], tfjsMs: number[] = [];
    // Batch-1 runs are short (tens of ms) and swing with the load, so they get twice the rounds; a batch-32 tfjs run takes seconds.
    for (let i = 0; i < (rows === 1 ? Math.max(3, 2 * repeats) : Math.max(2, Math.ceil(repeats / 2))); i++) {
      engineMs.push(await elapsed(engineRun));
      if (tfjs) tfjsMs.push(await elapsed(tfjsRun));
    }
    const key = `b${rows}`;
    sampling[key] = (rows * newTokens) / (median(engineMs) / 1000);
    let line = `sampling batch ${rows}: ${sampling[key]!.toFixed(0)} tokens/s (${newTokens} new tokens after a 32-token prompt, prefill included)`;
    if (tfjs) {
      tfjsSampling[key] = (rows * newTokens) / (median(tfjsMs) / 1000);
      samplingSpeedup[key] = speedup(engineMs, tfjsMs);
      samplingRounds[key] = roundsOf(engineMs, tfjsMs);
      line += `; tfjs ${tfjsSampling[key]!.toFixed(0)} tokens/s; engine speed-up ${samplingSpeedup[key]!.toFixed(2)}x `
        + `(ratio of medians ${(median(tfjsMs) / median(engineMs)).toFixed(2)}x; rounds engine/tfjs ms: ${pairs(engineMs, tfjsMs)})`;
    }
    console.log(line);
    if (rows === 32 && num('shards') > 1) shards = await benchShards({ config, weights, prompts, newTokens, rounds: Math.max(3, repeats), shards: num('shards'), oneSession: engineRun }, console.log);
    await sampler.close();
  }
  await sampleSession.release();

  const torch = a.torch === 'off' ? null : await torchPeer(weights, B, T, newTokens);
  let speedupVsTorch: Record<string, number> | null = null;
  if (torch !== null && 'unavailable' in torch) console.log(`torch baseline unavailable: ${torch.unavailable}`);
  else if (torch !== null) {
    const engineFullStep = stepMs + adamMs;
    speedupVsTorch = {
      train: round(torch.trainStepMs / engineFullStep), samplingB1: round(sampling['b1']! / torch.sampling['b1']!.tokensPerSec),
      samplingB32: round(sampling['b32']! / torch.sampling['b32']!.tokensPerSec), ...(shards ? { samplingB32Shards: round(shards.tokensPerSec / torch.sampling['b32']!.tokensPerSec) } : {}),
    };
    agreement['torchLogpMaxAbsDiff'] = maxAbsDiff(engineScore.logp, torch.logp);
    console.log(`torch ${torch.torch} (eager, CPU, ${torch.threads} thread(s) chosen by a probe: ${Object.entries(torch.threadProbeMs).map(([k, v]) => `${k} thread(s) ${v.toFixed(0)} ms`).join(", ")}; OMP_WAIT_POLICY=${torch.env?.OMP_WAIT_POLICY}, OPENBLAS_NUM_THREADS=${torch.env?.OPENBLAS_NUM_THREADS ?? "default"}, BLAS_INFO=${torch.blas}, libblas.so.3 -> ${torch.blasLibrary}); log-probs max |engine - torch| ${agreement['torchLogpMaxAbsDiff']!.toExponential(2)}`);
    console.log(`  training step + AdamW B=${B} T=${T}: torch ${torch.trainStepMs.toFixed(1)} ms vs engine ${engineFullStep.toFixed(1)} ms (${stepMs.toFixed(1)} + ${adamMs.toFixed(1)}): engine ${speedupVsTorch.train!.toFixed(2)}x (target >= 1.5x)`);
    console.log(`  sampling: torch ${torch.sampling['b1']!.tokensPerSec.toFixed(0)} / ${torch.sampling['b32']!.tokensPerSec.toFixed(0)} tokens/s at batch 1 / 32; engine ${speedupVsTorch.samplingB1!.toFixed(2)}x (target >= 2x) / ${speedupVsTorch.samplingB32!.toFixed(2)}x (target >= 3x)${shards ? `, on ${shards.shards} sampler shards ${speedupVsTorch.samplingB32Shards!.toFixed(2)}x` : ''}`);
    console.log('  (ratios of medians: torch runs after the engine in its own process, so rounds are not paired)');
  }
  const smol: SmolFigures | null = a.smol === '0' ? null : await benchSmolShape({ threads, allowSpinning, repeats: Math.min(repeats, 2) }, console.log);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const tfjsHeapMb = baseline ? baseline.memory().wasmHeapBytes / 2 ** 20 : null;
  console.log(baseline
    ? `peak RSS ${peakRssMb.toFixed(0)} MB (both implementations in this process); ${rssBeforeBaselineMb.toFixed(0)} MB after the engine's training warm-up, `
      + `before tfjs loaded; tfjs WASM heap ${tfjsHeapMb!.toFixed(0)} MB`
    : `peak RSS ${peakRssMb.toFixed(0)} MB`);
  const targets = {
    trainSpeedup3x: trainSpeedup === null ? null : trainSpeedup >= 3,
    samplingSpeedup3x: tfjs ? samplingSpeedup['b1']! >= 3 && samplingSpeedup['b32']! >= 3 : null,
    trainMfu30: mfu >= 0.3,
  };
  if (tfjs) {
    console.log(`targets: training ${trainSpeedup!.toFixed(2)}x (>= 3x: ${targets.trainSpeedup3x}); sampling ${samplingSpeedup['b1']!.toFixed(2)}x / `
      + `${samplingSpeedup['b32']!.toFixed(2)}x at batch 1 / 32 (>= 3x: ${targets.samplingSpeedup3x}); utilisation ${(mfu * 100).toFixed(1)}% (>= 30%: ${targets.trainMfu30})`);
  }
  tfjs?.dispose();
  console.log(JSON.stringify({
    bench: 'model', config, params, threads, allowSpinning, loadAverage: [round(loadStart), round(loadavg()[0]!)],
    matmulPeakGflops: round(peak.gflops, 1), pairedMatmulGflops: round(median(peaks), 1), matmulPeakN: peak.n,
    trainStepMs: round(stepMs), trainBatch: B, trainTime: T, trainGflops: round(achieved, 1), trainMfu: round(mfu, 3), scoreMs: round(scoreMs),
    samplingTokensPerSecB1: round(sampling['b1']!, 1), samplingTokensPerSecB32: round(sampling['b32']!, 1), bakeMs: round(bakeMs, 0),
    tfjs: baseline ? {
      backend: baseline.choice.backend, threads: baseline.choice.threads, probeMs: Object.fromEntries(Object.entries(baseline.choice.probes).map(([k, v]) => [k, v === null ? null : round(v, 0)])),
      trainStepMs: round(median(tfjsSteps)), samplingTokensPerSecB1: round(tfjsSampling['b1']!, 1), samplingTokensPerSecB32: round(tfjsSampling['b32']!, 1),
      wasmHeapMb: round(tfjsHeapMb!, 0),
    } : null,
    speedup: tfjs ? { train: round(trainSpeedup!), samplingB1: round(samplingSpeedup['b1']!), samplingB32: round(samplingSpeedup['b32']!), ...(shards ? { samplingB32Shards: round(shards.tokensPerSec / tfjsSampling['b32']!) } : {}) } : null,
    rounds: tfjs ? { train: roundsOf(steps, tfjsSteps), samplingB1: samplingRounds['b1'], samplingB32: samplingRounds['b32'] } : null,
    agreement: Object.fromEntries(Object.entries(agreement).map(([k, v]) => [k, +v.toExponential(2)])),
    targets, peakRssMb: round(peakRssMb, 0), rssBeforeBaselineMb: round(rssBeforeBaselineMb, 0), adamMs: round(adamMs), adamLoopMs: round(adamLoopMs),
    torch: torch === null || 'unavailable' in torch ? (torch ?? null) : {
      version: torch.torch, threads: torch.threads, threadProbeMs: torch.threadProbeMs, env: torch.env, blas: torch.blas, blasLibrary: torch.blasLibrary, trainStepMs: round(torch.trainStepMs),
      samplingTokensPerSecB1: round(torch.sampling['b1']!.tokensPerSec, 1), samplingTokensPerSecB32: round(torch.sampling['b32']!.tokensPerSec, 1),
      rounds: { trainMs: torch.trainStepMsRounds.map((x) => round(x, 1)), samplingB1Ms: torch.sampling['b1']!.msRounds.map((x) => round(x, 1)), samplingB32Ms: torch.sampling['b32']!.msRounds.map((x) => round(x, 1)) },
    },
    samplingShardsB32: shards, speedupVsTorch, smol135m: smol,
  }));
}

/** The PyTorch peer on these very weights: exported as a Hugging Face directory, loaded by bench/torch_baseline.py. */
async function torchPeer(weights: Map<string, Float32Array>, B: number, T: number, newTokens: number): Promise<TorchBaselineResult | { unavailable: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'spade-bench-torch-'));
  try {
    await saveHfModel(join(dir, 'model'), { model: config, params: weights });
    return await runTorchBaseline(join(dir, 'model'), { batch: B, time: T, repeats, newTokens, rows: [1, 32], threads: threads || availableParallelism() }, console.log);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
// tfjs's WASM thread pool keeps its workers referenced, so the process would not end on its own.
process.exit(0);
