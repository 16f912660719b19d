// Two-phase training against scoring + the one-piece training graph (issue 24), on the shipped base checkpoint's shape
// (npm run bench:two-phase): per micro-batch shape, the median of interleaved reps of score+train and of
// forward+backward, and the bytes the forward half keeps for its backward (they leave onnxruntime and come back).
// Flags: --shapes 8x128,4x700 (timed), --bytes 4x1000,8x600 (saved bytes only), --reps 5, --threads 2; --rss old|split
// with --shapes '' runs three passes of one path per --bytes shape and reports the process's peak RSS after each.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ModelSession, initParameters, type DecoderConfig } from '../model/index.js';
import { median } from './loop-arm-figures.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const shapesOf = (s: string): [number, number][] => (s ? s.split(',').map((x) => x.split('x').map(Number) as [number, number]) : []);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

async function main(): Promise<void> {
  const config = (JSON.parse(readFileSync(new URL('../../model/checkpoints/base/config.json', import.meta.url), 'utf8')) as { model: DecoderConfig }).model;
  const reps = Number(arg('reps', '5')), threads = Number(arg('threads', '2'));
  const rss = arg('rss', '');
  const graphs = rss === 'old' ? ['train', 'score'] as const : rss === 'split' ? ['split'] as const : ['train', 'score', 'split'] as const;
  const session = await ModelSession.create(config, { graphs: [...graphs], intraOpNumThreads: threads });
  const weights = initParameters(config, 1); // timing and sizes do not depend on the values
  const batchOf = (B: number, T: number) => ({
    tokens: BigInt64Array.from({ length: B * T }, (_, i) => BigInt((i * 31 + 7) % config.vocab)), batch: B, time: T,
    mask: new Float32Array(B * (T - 1)).fill(1), dlogp: new Float32Array(B * (T - 1)).fill(-1 / (B * (T - 1))),
  });
  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  console.log(`base config ${JSON.stringify(config)}; threads ${threads}; load average ${load()}`);
  for (const [B, T] of shapesOf(arg('bytes', '4x1000,8x600'))) {
    if (rss) {
      // Peak RSS of one pass of one path, in a process that ran nothing else (run once per path).
      const batch = batchOf(B, T);
      const peaks: string[] = [];
      for (let i = 0; i < 3; i++) {
        if (rss === 'old') await session.score(batch, weights), await session.train(batch, weights);
        else await session.backward((await session.forward(batch, weights)).saved, batch, weights);
        peaks.push((process.resourceUsage().maxRSS / 2 ** 10).toFixed(0));
      }
      console.log(`${rss} B=${B} T=${T}: peak rss after passes 1, 2, 3: ${peaks.join(', ')} MiB`);
      continue;
    }
    const f = await session.forward(batchOf(B, T), weights);
    const sizes = Object.values(f.saved.tensors).map((t) => [(t.data as ArrayBufferView).byteLength, t.dims.join('x')] as const).sort((a, b) => b[0] - a[0]);
    const mib = (x: number): string => (x / 2 ** 20).toFixed(1);
    console.log(`saved B=${B} T=${T}: ${sizes.length} tensors, ${mib(f.saved.bytes)} MiB; largest ${sizes.slice(0, Number(arg('top', '3'))).map(([n, d]) => `${d} ${mib(n)}`).join(', ')} MiB`);
  }
  for (const [B, T] of shapesOf(arg('shapes', '8x128,4x700'))) {
    const batch = batchOf(B, T);
    const old = async (): Promise<void> => { await session.score(batch, weights); await session.train(batch, weights); };
    const split = async (): Promise<void> => { const f = await session.forward(batch, weights); await session.backward(f.saved, batch, weights); };
    await old();
    await split(); // warm-up: the arena's first allocations
    const a: number[] = [], b: number[] = [], parts = { score: [] as number[], train: [] as number[], forward: [] as number[], backward: [] as number[] };
    for (let i = 0; i < reps; i++) {
      // Alternate which goes first, so a load change in the middle of a rep does not favour one.
      for (const which of i % 2 ? ['split', 'old'] : ['old', 'split']) {
        if (which === 'old') {
          const s = await time(() => session.score(batch, weights)), t = await time(() => session.train(batch, weights));
          parts.score.push(s), parts.train.push(t), a.push(s + t);
        } else {
          let f!: Awaited<ReturnType<ModelSession['forward']>>;
          const s = await time(async () => (f = await session.forward(batch, weights))), t = await time(() => session.backward(f.saved, batch, weights));
          parts.forward.push(s), parts.backward.push(t), b.push(s + t);
        }
      }
    }
    const m = (xs: number[]): string => median(xs).toFixed(0);
    console.log(`B=${B} T=${T}: score+train ${m(a)} ms (${m(parts.score)} + ${m(parts.train)}), forward+backward ${m(b)} ms (${m(parts.forward)} + ${m(parts.backward)}), `
      + `ratio ${(median(b) / median(a)).toFixed(3)}; per-rep ratios ${b.map((x, i) => (x / a[i]!).toFixed(2)).join(' ')}; load ${load()}`);
  }
  await session.release();
}

await main();
