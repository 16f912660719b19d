// PPO epochs per iteration, measured two ways (npm run bench:epochs):
//   1. what a learner update costs per epoch on the base checkpoint's shape (4×256, context 2560) for one
//      iteration's batch: 4 designer samples of 1,300 tokens (300 prompt + 1,000 module) and 4 × k agent episodes
//      of 400 tokens (k = 8, 12 turns of a few action tokens merged into one row);
//   2. how far each epoch count moves a policy per iteration: a one-step bandit on the tiny decoder (lr 1e-3, no
//      warm-up), sampled by the real sampler, rewarded on the lower half of the vocabulary, GRPO advantages, the
//      'decoupled' objective; the rewarded share before and after a fixed number of iterations, 5 seeds.
import { groupNormalise } from '../actors/evaluator/index.js';
import { PolicyTrainer, type Row } from '../actors/learner/index.js';
import { AdamW, ModelSession, Sampler, initParameters, type DecoderConfig } from '../model/index.js';

const BASE: DecoderConfig = { layers: 4, width: 256, heads: 8, kvHeads: 4, ffnHidden: 704, contextLength: 2560, vocab: 2048 };
const TINY: DecoderConfig = { layers: 1, width: 16, heads: 2, contextLength: 32, vocab: 272, ffnHidden: 32 };
const lr = (peakLr: number) => new AdamW({ schedule: { peakLr, warmupSteps: 0, decaySteps: 1e6, minLr: peakLr }, weightDecay: 0, maxGradNorm: 1 });

function row(trajId: string, role: 'designer' | 'agent', prompt: number, sampled: number, advantage: number, seed: number): Row {
  const tokens = Array.from({ length: prompt + sampled }, (_, i) => (i * 31 + seed * 7) % 2000 + 1);
  const positions = Array.from({ length: sampled }, (_, i) => prompt + i);
  return { trajId, role, tokens, positions, behaviour: new Float32Array(sampled).fill(-3), advantage };
}

async function cost(epochsList: number[]): Promise<void> {
  const session = await ModelSession.create(BASE, { graphs: ['train', 'score'], intraOpNumThreads: 2 });
  const rows: Row[] = [];
  for (let d = 0; d < 4; d++) rows.push(row(`d${d}`, 'designer', 300, 1000, d % 2 ? 1 : -1, d));
  // An agent episode: 12 turns of ~4 action tokens in a 400-token merged row (positions spread over it).
  for (let a = 0; a < 32; a++) {
    const r = row(`a${a}`, 'agent', 0, 0, a % 2 ? 1 : -1, a + 10);
    r.tokens = Array.from({ length: 400 }, (_, i) => (i * 17 + a) % 2000 + 1);
    r.positions = Array.from({ length: 48 }, (_, i) => 8 + Math.floor(i / 4) * 32 + (i % 4));
    r.behaviour = new Float32Array(48).fill(-3);
    rows.push(r);
  }
  for (const epochs of epochsList) {
    const trainer = new PolicyTrainer(session, initParameters(BASE, 1), lr(1e-4), { kind: 'decoupled', clipEps: 0.2, tisCap: 2, epochs, microBatchTokens: 8192 });
    const t0 = performance.now();
    await trainer.update(rows);
    console.log(`cost: epochs ${epochs}: ${((performance.now() - t0) / 1000).toFixed(1)} s for one iteration (${rows.length} rows, ${rows.reduce((n, r) => n + r.positions.length, 0)} trained tokens)`);
  }
  await session.release();
}

async function movement(epochsList: number[], iterations: number, seeds: number[]): Promise<void> {
  const PROMPT = [1, 2, 3];
  const rewarded = (token: number) => (token < 136 ? 1 : 0);
  for (const epochs of epochsList) {
    const shares: number[] = [], before: number[] = [];
    let ms = 0, clip = 0;
    for (const seed of seeds) {
      const session = await ModelSession.create(TINY, { graphs: ['train', 'score', 'sample'], intraOpNumThreads: 1 });
      const weights = initParameters(TINY, seed);
      const sampler = new Sampler(session, weights, 0, null, { seed });
      const trainer = new PolicyTrainer(session, weights, lr(1e-3), { kind: 'decoupled', clipEps: 0.2, tisCap: 2, epochs, microBatchTokens: 4096 });
      const round = (n: number) => Promise.all(Array.from({ length: n }, () => sampler.generate({ prompt: PROMPT, temperature: 1, maxTokens: 1 })));
      const first = await round(256);
      before.push(first.filter((o) => rewarded(o.tokens[0]!)).length / first.length);
      for (let it = 0; it < iterations; it++) {
        const outs = await round(16);
        const adv = groupNormalise(outs.map((o) => rewarded(o.tokens[0]!)), 1e-6);
        const rows: Row[] = outs.map((o, i) => ({ trajId: `${it}-${i}`, tokens: [...PROMPT, o.tokens[0]!], positions: [PROMPT.length], behaviour: Float32Array.of(o.logprobs[0]!), advantage: adv[i]! }));
        const t0 = performance.now();
        const st = await trainer.update(rows);
        ms += performance.now() - t0;
        clip += st.clipFraction;
        sampler.setWeights(weights, it + 1);
      }
      const outs = await round(256);
      shares.push(outs.filter((o) => rewarded(o.tokens[0]!)).length / outs.length);
      await sampler.close();
      await session.release();
    }
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    const mean0 = before.reduce((a, b) => a + b, 0) / before.length;
    console.log(`movement: epochs ${epochs}: rewarded share ${mean0.toFixed(3)} -> ${mean.toFixed(3)} after ${iterations} iterations (seeds ${shares.map((x) => x.toFixed(2)).join(' ')}), first-epoch clip fraction ${(clip / seeds.length / iterations).toFixed(3)}, ${(ms / seeds.length / iterations).toFixed(1)} ms per update`);
  }
}

const epochsList = (process.env.BENCH_EPOCHS ?? '1,2,4').split(',').map(Number);
await movement(epochsList, Number(process.env.BENCH_EPOCHS_ITERATIONS ?? 30), [1, 2, 3, 4, 5]);
if (process.env.BENCH_EPOCHS_COST !== '0') await cost(epochsList);
