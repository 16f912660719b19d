// Requests that arrive while a batch runs join it at the next step, and batching does not change any result:
// greedy outputs and log-probs equal those of each request run alone.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler, type SampleOutput } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

const prompts = [[1, 2, 3], [4, 5, 6, 7, 8, 9, 10], [11], [12, 13, 14, 15, 16]];

t.test('late joiners decode in the same batch and match solo runs', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const weights = tinyWeights(5);
  const solo: SampleOutput[] = [];
  for (const p of prompts) {
    const s = new Sampler(session, weights, 1);
    solo.push(await s.generate({ prompt: p, temperature: 0, maxTokens: 12 }));
    await s.close();
  }
  const s = new Sampler(session, weights, 1);
  const late: Promise<SampleOutput>[] = [];
  let widest = 0;
  s.onStep = (step) => {
    widest = Math.max(widest, s.activeRows);
    if (step === 2) late.push(s.generate({ prompt: prompts[2]!, temperature: 0, maxTokens: 12 }));
    if (step === 5) late.push(s.generate({ prompt: prompts[3]!, temperature: 0, maxTokens: 12 }));
  };
  const first = await Promise.all([
    s.generate({ prompt: prompts[0]!, temperature: 0, maxTokens: 12 }),
    s.generate({ prompt: prompts[1]!, temperature: 0, maxTokens: 12 }),
  ]);
  const all = [...first, ...(await Promise.all(late))];
  t.equal(widest, 4, 'all four requests were decoded in one batch at some step');
  t.ok(s.steps < 4 * 11, `batched: ${s.steps} decode steps for 4 requests of 12 tokens`);
  let maxDiff = 0;
  all.forEach((o, i) => {
    t.same(o.tokens, solo[i]!.tokens, `request ${i} tokens equal its solo run`);
    t.equal(o.finishReason, 'length');
    o.logprobs.forEach((lp, j) => (maxDiff = Math.max(maxDiff, Math.abs(lp - solo[i]!.logprobs[j]!))));
  });
  t.ok(maxDiff < 1e-4, `log-probs match solo runs (max diff ${maxDiff.toExponential(2)})`);
  await s.close();
  await session.release();
});
