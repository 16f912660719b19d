// Turns of an episode whose prompt extends the previous prompt and completion share one training row; a turn whose
// prompt does not (older turns dropped to fit) starts a new row. Merged rows give the same gradients as one row per turn.
import t from 'tap';
import { AdamW, ModelSession, initParameters } from '../../../model/index.js';
import { PolicyTrainer, trajectoryRows } from '../../../actors/learner/index.js';
import type { Labeled, Sample } from '../../../actors/loop/messages.js';
import { packFloats, packInts } from '../../../actors/loop/packed.js';
import { TINY } from './tiny.js';

const turn = (prompt: number[], tokens: number[], lp: number[]): Sample => ({
  promptTokens: packInts(prompt), tokens: packInts(tokens), logprobs: packFloats(lp), versions: packInts(tokens.map(() => 0)), text: '', finishReason: 'stop',
});
const episode: Labeled = {
  trajId: 'ep', role: 'agent', advantage: 0.75, reward: 1,
  samples: [
    turn([1, 2], [5, 6], [-1, -2]),
    turn([1, 2, 5, 6, 7, 8], [9], [-3]), // history + new observation: extends turn 1
    turn([1, 3], [4], [-4]), // history dropped to fit: a new row
    turn([1, 3, 4, 10], [11, 12], [-5, -6]),
  ],
};
const limits = { contextLength: 32, vocab: 272 };

t.test('the turns of an episode merge into one row', async (t) => {
  t.test('rows follow the prompt prefixes', async (t) => {
    const rows = trajectoryRows(episode, limits);
    t.same(rows.map((r) => r.tokens), [[1, 2, 5, 6, 7, 8, 9], [1, 3, 4, 10, 11, 12]]);
    t.same(rows.map((r) => r.positions), [[2, 3, 6], [2, 4, 5]]);
    t.same(rows.map((r) => [...r.behaviour]), [[-1, -2, -3], [-4, -5, -6]]);
    t.equal(trajectoryRows(episode, limits, false).length, 4, 'without merging: one row per turn');
  });

  t.test('merged rows give the gradients of one row per turn', async (t) => {
    const session = await ModelSession.create(TINY, { graphs: ['train', 'score'], intraOpNumThreads: 1 });
    t.teardown(() => session.release());
    const trainer = new PolicyTrainer(session, initParameters(TINY, 3), new AdamW(), { kind: 'behaviour', clipEps: 0.2, tisCap: 2, epochs: 1, microBatchTokens: 4096 });
    const merged = await trainer.gradients(trajectoryRows(episode, limits));
    const split = await trainer.gradients(trajectoryRows(episode, limits, false));
    t.equal(merged.stats.tokens, 6);
    t.equal(merged.stats.processedTokens, 13, 'vs 20 when split');
    t.equal(split.stats.processedTokens, 20);
    t.ok(Math.abs(merged.stats.loss - split.stats.loss) < 1e-5, `same objective (${merged.stats.loss} vs ${split.stats.loss})`);
    let maxDiff = 0, maxAbs = 0;
    for (const [name, g] of merged.grads) {
      const h = split.grads.get(name)!;
      for (let i = 0; i < g.length; i++) (maxDiff = Math.max(maxDiff, Math.abs(g[i]! - h[i]!))), (maxAbs = Math.max(maxAbs, Math.abs(h[i]!)));
    }
    t.ok(maxAbs > 1e-5 && maxDiff <= 1e-4 * maxAbs, `gradients agree (max diff ${maxDiff.toExponential(2)}, max |g| ${maxAbs.toExponential(2)})`);
  });
});
