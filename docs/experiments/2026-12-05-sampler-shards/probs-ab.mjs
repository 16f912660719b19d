// Scratch A/B script kept with its outputs: /tmp/olddist is `npx tsc` output of commit b668ca8, /tmp/newdist of 25756ff,
// each with node_modules linked in; run with `node probs-ab.mjs` (TEMP=0.5 for temperature 0.5).
// A/B in one process: the sampler before probs_last (olddist, commit b668ca8) and after (newdist), alternating rounds.
import { loadavg } from 'node:os';
const dist = { old: '/tmp/olddist', new: '/tmp/newdist' };
const m = {};
for (const k of ['old', 'new']) m[k] = { model: await import(`${dist[k]}/model/index.js`), sampler: await import(`${dist[k]}/model/sampler/index.js`) };
const config = m.new.model.validateDecoderConfig({ layers: 4, width: 256, heads: 8, kvHeads: 4, vocab: 2048, contextLength: 2560, ffnHidden: 704 });
const weights = m.new.model.initParameters(config, 1);
const newTokens = 48, T = +(process.env.TEMP ?? 1);
console.log('load', loadavg().map((x) => x.toFixed(2)).join(' '), 'temperature', T);
for (const rows of [1, 32]) {
  const prompts = Array.from({ length: rows }, (_, i) => Array.from({ length: 32 }, (_, j) => (i * 13 + j * 7) % 2048));
  const arms = {};
  for (const k of ['old', 'new']) { const s = await m[k].model.ModelSession.create(config, { intraOpNumThreads: 0, graphs: ['sample'] }); arms[k] = { s, sampler: new m[k].sampler.Sampler(s, weights, 1, null, { maxBatch: rows, seed: 1 }) }; }
  const run = (k) => Promise.all(prompts.map((prompt) => arms[k].sampler.generate({ prompt, maxTokens: newTokens, temperature: T })));
  for (const k of ['old', 'new']) await run(k);
  const t = { old: [], new: [] };
  const rounds = rows === 1 ? 30 : 12;
  for (let r = 0; r < rounds; r++) for (const k of r % 2 ? ['new', 'old'] : ['old', 'new']) { const t0 = performance.now(); await run(k); t[k].push(performance.now() - t0); }
  const med = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
  const ratios = t.old.map((o, i) => o / t.new[i]);
  console.log(`batch ${rows}: old ${(rows * newTokens / med(t.old) * 1000).toFixed(0)} tok/s, new ${(rows * newTokens / med(t.new) * 1000).toFixed(0)} tok/s; new/old speed ${med(ratios).toFixed(3)} (median of ${rounds} paired rounds; ${ratios.filter((x) => x > 1).length} of ${rounds} faster)`);
  for (const k of ['old', 'new']) { await arms[k].sampler.close(); await arms[k].s.release(); }
}
console.log('load', loadavg().map((x) => x.toFixed(2)).join(' '));
