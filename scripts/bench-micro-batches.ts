// Micro-batches cut by length against the old greedy packing (npm run bench:micro-batches): the rows of real learner
// passes (logged from a bench:loop round: docs/experiments/2026-12-05-micro-batches/rows-logged.txt, one old pass a
// line, each row's role and length; each line is re-cut on its own, so the gain is a lower bound on a minibatch's),
// replayed with pseudo-random tokens through the base checkpoint's shape as two-phase forward + backward passes,
// grouped the old way and by actors/learner/micro-batches.ts at each pass cost. Interleaved reps (alternating order),
// medians, and the range of the per-rep ratios to greedy.
// Flags: --rows FILE, --from N --to N (lines), --costs 0,64,128, --reps 3, --threads 1.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { microBatches, type Row } from '../actors/learner/index.js';
import { ModelSession, initParameters, packBatch, type DecoderConfig } from '../model/index.js';
import { repoPath } from '../runtime/paths.js';
import { median } from './loop-arm-figures.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** The packing the learner used before micro-batches.ts: length-sorted rows, greedily, up to `budget` padded tokens. */
function greedy(rows: readonly Row[], budget: number): Row[][] {
  const sorted = [...rows].sort((a, b) => b.tokens.length - a.tokens.length);
  const out: Row[][] = [];
  let cur: Row[] = [];
  for (const r of sorted) {
    if (cur.length > 0 && (cur.length + 1) * cur[0]!.tokens.length > budget) out.push(cur), (cur = []);
    cur.push(r);
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

async function main(): Promise<void> {
  const config = (JSON.parse(readFileSync(repoPath('model/checkpoints/base/config.json'), 'utf8')) as { model: DecoderConfig }).model;
  const reps = Number(arg('reps', '3')), threads = Number(arg('threads', '1'));
  const lines = readFileSync(arg('rows', repoPath('docs/experiments/2026-12-05-micro-batches/rows-logged.txt')), 'utf8').trim().split('\n');
  const logged = lines.slice(Number(arg('from', '0')), Number(arg('to', String(lines.length))))
    .map((l) => (JSON.parse(l.slice(l.indexOf(' ') + 1)) as { roles: string }).roles.split(',').map((r) => Number(r.slice(1))));
  let k = 1;
  const token = (): number => (k = (k * 1_103_515_245 + 12_345) % 2 ** 31) % config.vocab;
  const passes = logged.map((lengths) => lengths.map((n) => ({ tokens: Array.from({ length: n }, token) }) as unknown as Row));
  const session = await ModelSession.create(config, { graphs: ['split'], intraOpNumThreads: threads, allowSpinning: false });
  const weights = initParameters(config, 1); // the time does not depend on the values
  const plans: Record<string, Row[][][]> = { greedy: passes.map((m) => greedy(m, 8_192)) };
  for (const c of arg('costs', '0,64,128').split(',').map(Number)) plans[`cost ${c}`] = passes.map((m) => microBatches(m, 8_192, 2 ** 23, c));
  const run = async (plan: Row[][][]): Promise<number> => {
    const t0 = performance.now();
    for (const mb of plan.flat()) {
      const batch = packBatch(mb.map((r) => ({ tokens: r.tokens })));
      const f = await session.forward(batch, weights);
      await session.backward(f.saved, { ...batch, dlogp: batch.dlogp.fill(1e-3) }, weights);
    }
    return performance.now() - t0;
  };
  console.log(`${passes.length} logged passes, base model shape, ${threads} thread(s), ${reps} reps; load ${load()}`);
  await run([plans.greedy![0]!]); // warm-up: the arena's first allocations
  const ms: Record<string, number[]> = Object.fromEntries(Object.keys(plans).map((n) => [n, []]));
  for (let i = 0; i < reps; i++) {
    const order = Object.keys(plans);
    if (i % 2) order.reverse(); // a load change in the middle of a rep favours no plan
    for (const n of order) ms[n]!.push(await run(plans[n]!));
  }
  console.log('| grouping | passes | padded tokens | median ms | vs greedy (per-rep range) |\n|---|---|---|---|---|');
  for (const [n, plan] of Object.entries(plans)) {
    const padded = plan.flat().reduce((a, mb) => a + mb.length * mb[0]!.tokens.length, 0);
    const ratios = ms[n]!.map((x, i) => x / ms.greedy![i]!);
    console.log(`| ${n} | ${plan.flat().length} | ${padded} | ${median(ms[n]!).toFixed(0)} | ${(median(ms[n]!) / median(ms.greedy!)).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`);
  }
  console.log(`load ${load()}`);
  await session.release();
}

await main();
