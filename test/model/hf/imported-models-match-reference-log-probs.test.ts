// Parity: every Hugging Face fixture (Llama and Qwen2 tied/untied, single-file F32 and sharded BF16, Qwen3 with
// q/k norms, llama3 rope scaling, head_dim apart from width/heads) loads and scores the reference's per-token
// log-probs within 2e-4, through the scoring graph and the training graph alike.
import t from 'tap';
import { loadModel } from '../../../model/load-model.js';
import { ModelSession } from '../../../model/session.js';
import { EXPECTED, FIXTURE_NAMES, fixtureDir, maxAbsDiff } from './fixtures.js';

t.test('imported models score the reference log-probs', async (t) => {
  t.equal(FIXTURE_NAMES.length, 5);
  const tokens = BigInt64Array.from(EXPECTED.tokens.map(BigInt));
  const T = tokens.length;
  for (const name of FIXTURE_NAMES) {
    const m = await loadModel(fixtureDir(name));
    const want = EXPECTED.models[name]!;
    t.equal(m.format, 'hf', `${name} is read as a Hugging Face directory`);
    t.same(m.dtypes, [want.dtype], `${name} stored as ${want.dtype}`);
    const s = await ModelSession.create(m.model, { graphs: ['train', 'score'] });
    const ones = new Float32Array(T - 1).fill(1);
    const scored = await s.score({ tokens, batch: 1, time: T, mask: ones }, m.params);
    const trained = await s.train({ tokens, batch: 1, time: T, mask: ones, dlogp: ones }, m.params);
    const d = maxAbsDiff(scored.logp, want.logprobs);
    t.ok(d <= 2e-4, `${name}: scoring graph max abs diff ${d.toExponential(2)} <= 2e-4`);
    t.ok(maxAbsDiff(trained.logp, want.logprobs) <= 2e-4, `${name}: training graph too`);
    console.log(`# ${name}: max abs log-prob diff ${d.toExponential(3)} over ${T - 1} tokens`);
    await s.release();
  }
});
