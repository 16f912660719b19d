// The sampler on its own thread gives what the Sampler gives on this one (same weights, seed and requests → same
// tokens, log-probs, versions and text), and follows setWeights.
import t from 'tap';
import { Sampler } from '../../../model/sampler/sampler.js';
import { ModelSession } from '../../../model/session.js';
import { LETTERS, TINY, startThreadSampler as start, tinyWeights } from './tiny.js';

t.test('same samples as the Sampler on this thread', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const local = new Sampler(session, tinyWeights(1), 3, LETTERS, { seed: 5, stopTokens: [25] });
  const thread = await start();
  t.teardown(async () => (await local.close(), await thread.close(), await session.release()));
  for (const req of [{ prompt: [3, 1, 4], temperature: 0, maxTokens: 8 }, { prompt: [7, 7], temperature: 1, maxTokens: 12 }, { prompt: [1, 2, 3, 4, 5], temperature: 0.7, topP: 0.9, maxTokens: 6 }]) {
    const [a, b] = [await local.generate(req), await thread.generate(req)];
    t.same(b.tokens, a.tokens, `tokens of ${JSON.stringify(req)}`);
    t.same(b.logprobs, a.logprobs);
    t.same(b.versions, a.versions);
    t.equal(b.text, a.text, `text "${a.text}"`);
    t.equal(b.finishReason, a.finishReason);
  }
  t.ok(thread.steps > 0, `decode steps counted (${thread.steps})`);

  thread.setWeights(tinyWeights(2), 4);
  t.equal(thread.policyVersion, 4, 'the version moves at once');
  t.throws(() => thread.setWeights(tinyWeights(2), 4), { name: 'StaleWeightsError' });
  const after = await thread.generate({ prompt: [3, 1, 4], temperature: 0, maxTokens: 3 });
  t.same(after.versions, [4, 4, 4], 'later requests sample with the new weights');
  const fresh = new Sampler(session, tinyWeights(2), 4);
  t.same(after.tokens, (await fresh.generate({ prompt: [3, 1, 4], temperature: 0, maxTokens: 3 })).tokens);
  await fresh.close();
});
