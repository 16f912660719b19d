// A full prefill computes rows x length² attention cells at once, and onnxruntime keeps the largest run's memory for
// good; so waiting prompts are prefilled shortest first in groups within prefillCells, with the same results.
import t from 'tap';
import { validateDecoderConfig } from '../../../model/decoder-config.js';
import { ModelSession } from '../../../model/session.js';
import { byPrefillCells } from '../../../model/sampler/prefill-groups.js';
import { Sampler, type SampleOutput } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

const row = (n: number, id: string) => ({ id, prompt: new Array<number>(n).fill(0) });

t.test('long prompts prefill in groups within prefill cells', async (t) => {
  t.test('shortest first, cut where rows x longest² would pass the bound, a longer row alone', async (t) => {
    const groups = byPrefillCells([row(40, 'a'), row(10, 'b'), row(100, 'c'), row(12, 'd'), row(40, 'e')], 3200);
    t.same(groups.map((g) => g.map((r) => r.id)), [['b', 'd'], ['a', 'e'], ['c']]);
    t.same(byPrefillCells([], 10), []);
  });

  async function run(prefillCells: number): Promise<{ outs: SampleOutput[]; prefills: Array<[number, number]> }> {
    const session = await ModelSession.create(validateDecoderConfig(TINY), { graphs: ['sample'], intraOpNumThreads: 1 });
    const prefills: Array<[number, number]> = [];
    const step = session.step.bind(session);
    session.step = (s, w) => {
      if (s.steps > 1) prefills.push([s.batch, s.steps]);
      return step(s, w);
    };
    const sampler = new Sampler(session, tinyWeights(1), 1, null, { seed: 5, prefixCacheBytes: 0, prefillCells, bakeWeights: false });
    const lengths = [40, 7, 33, 12, 40, 21, 3, 28];
    const outs = await Promise.all(lengths.map((n, i) => sampler.generate({ prompt: Array.from({ length: n }, (_, j) => (i * 7 + j * 3) % 26), temperature: 0, maxTokens: 4 })));
    await sampler.close();
    await session.release();
    return { outs, prefills };
  }

  t.test('eight waiting prompts prefill within the bound and sample what one big prefill samples', async (t) => {
    const one = await run(1 << 30);
    const grouped = await run(2_000);
    t.ok(one.prefills.some(([B, S]) => B > 1 && B * S * S > 2_000), `unbounded: the waiting rows in one call past the bound ${JSON.stringify(one.prefills)}`);
    t.ok(grouped.prefills.length > 1, `grouped: ${JSON.stringify(grouped.prefills)}`);
    for (const [B, S] of grouped.prefills) t.ok(B === 1 || B * S * S <= 2_000, `${B} rows of ${S}: within 2000 cells or alone`);
    t.same(grouped.outs.map((o) => o.tokens), one.outs.map((o) => o.tokens), 'same greedy tokens');
    grouped.outs.forEach((o, i) => o.logprobs.forEach((lp, j) => t.ok(Math.abs(lp - one.outs[i]!.logprobs[j]!) < 1e-4, `row ${i} token ${j} log-prob`)));
  });
});
