// Times one tfjs backend candidate on the benchmark's own model, in a fresh process (tfjs sets WASM up once per
// process): a short training step and a short generation, after a warm-up, best of two. Prints one JSON line.
// Usage: node bench/tfjs-probe.mjs '{"backend":"wasm","threads":2,"config":{...},"shapes":[[name,[dims]],...]}'
import { initBackend } from './tfjs-backend.mjs';
import { TfjsDecoder } from './tfjs-decoder.mjs';

const { backend, threads, config, shapes } = JSON.parse(process.argv[2]);
const up = await initBackend(backend, threads);
if (!up.backend) {
  console.log(JSON.stringify({ backend, threads, ms: null, notes: up.notes }));
  process.exit(0);
}
let s = 12345;
const normal = () => {
  s = (s * 1103515245 + 12345) % 2147483648;
  return ((s / 2147483648) - 0.5) * 0.04;
};
const params = shapes.map(([n, dims]) => [n, dims, Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, n.endsWith('norm.weight') ? () => 1 : normal)]);
const model = new TfjsDecoder(config, params);
const T = 32;
const tokens = Int32Array.from({ length: T }, (_, i) => (i * 31 + 7) % config.vocab);
const ones = new Float32Array(T - 1).fill(1);
const work = async () => {
  await model.trainStep(tokens, 1, T, ones, ones);
  await model.generate([Array.from(tokens.subarray(0, 8))], 8, () => 1);
};
await work();
let best = Infinity;
for (let i = 0; i < 2; i++) { // best of two: other processes share these cores
  const t0 = performance.now();
  await work();
  best = Math.min(best, performance.now() - t0);
}
console.log(JSON.stringify({ backend: up.backend, threads: up.threads, ms: best, notes: up.notes }));
process.exit(0); // the WASM thread pool keeps its workers referenced
