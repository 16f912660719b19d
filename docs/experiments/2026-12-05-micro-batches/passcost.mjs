// Scratch: time two-phase forward+backward over the logged micro-batches' rows, grouped the old greedy way and by the
// DP at several pass costs. Rows of the logged lengths, tokens pseudo-random. Interleaved reps, medians.
// Usage (repo root, built): node docs/experiments/2026-12-05-micro-batches/passcost.mjs ROWS.txt FROM TO; env REPS, THREADS, COSTS.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
const M = new URL('../../../dist', import.meta.url).href; // run from the repo root after npm run build
const { ModelSession, initParameters, packBatch } = await import(`${M}/model/index.js`);
const { microBatches } = await import(`${M}/actors/learner/micro-batches.js`);
const config = JSON.parse(readFileSync(new URL('../../../model/checkpoints/base/config.json', import.meta.url), 'utf8')).model;
const threads = Number(process.env.THREADS ?? 1), reps = Number(process.env.REPS ?? 3);
const session = await ModelSession.create(config, { graphs: ['split'], intraOpNumThreads: threads, allowSpinning: false });
const weights = initParameters(config, 1);
const L = readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => JSON.parse(l.slice(l.indexOf(' ') + 1)));
const from = Number(process.argv[3] ?? 0), to = Number(process.argv[4] ?? L.length);
const lengths = L.slice(from, to).map((x) => x.roles.split(',').map((r) => Number(r.slice(1))));
const greedy = (rows, budget) => {
  const sorted = [...rows].sort((a, b) => b.tokens.length - a.tokens.length); const out = []; let cur = [];
  for (const r of sorted) { const w = cur.length ? cur[0].tokens.length : r.tokens.length; if (cur.length && (cur.length + 1) * w > budget) { out.push(cur); cur = []; } cur.push(r); }
  if (cur.length) out.push(cur); return out;
};
let k = 0;
const mk = (n) => ({ tokens: Array.from({ length: n }, () => (k = (k * 1103515245 + 12345) % 2 ** 31) % config.vocab) });
const sets = lengths.map((ls) => ls.map(mk));
const variants = { greedy: (rows) => greedy(rows, 8192), ...Object.fromEntries((process.env.COSTS ?? "0,128,256,512").split(",").map(Number).map((c) => [`dp${c}`, (rows) => microBatches(rows, 8192, 2 ** 23, c)])) };
const run = async (groups) => { for (const g of groups) { const b = packBatch(g.map((r) => ({ tokens: r.tokens }))); const f = await session.forward(b, weights); await session.backward(f.saved, { ...b, dlogp: b.dlogp.fill(1e-3) }, weights); } };
const plan = Object.fromEntries(Object.entries(variants).map(([n, f]) => [n, sets.map(f)]));
for (const [n, p] of Object.entries(plan)) console.log(`${n}: passes ${p.reduce((a, g) => a + g.length, 0)}, padded tokens ${p.reduce((a, g) => a + g.reduce((x, mb) => x + mb.length * mb[0].tokens.length, 0), 0)}`);
await run(plan.greedy.flat().slice(0, 3).map((g) => g)); // warm-up
const times = Object.fromEntries(Object.keys(plan).map((n) => [n, []]));
for (let i = 0; i < reps; i++) {
  const order = Object.keys(plan); if (i % 2) order.reverse();
  for (const n of order) { const t0 = performance.now(); for (const p of plan[n]) await run(p); times[n].push(performance.now() - t0); }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const n of Object.keys(plan)) console.log(`${n}: ${med(times[n]).toFixed(0)} ms median of ${reps} (${times[n].map((x) => x.toFixed(0)).join(' ')}), vs greedy ${(med(times[n]) / med(times.greedy)).toFixed(3)}`);
console.log(`threads ${threads}; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
await session.release();
