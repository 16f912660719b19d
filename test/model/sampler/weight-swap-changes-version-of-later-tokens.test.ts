// setWeights() between steps: tokens sampled before keep the old version, later ones carry the new version and
// come from the new weights; versions never go backwards.
import t from 'tap';
import { isSamplerError } from '../../../model/sampler/errors.js';
import { ModelSession } from '../../../model/session.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

t.test('a swap mid-generation splits the versions at the next token', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const s = new Sampler(session, tinyWeights(1), 7);
  const other = tinyWeights(2);
  s.onStep = (step) => { if (step === 4) s.setWeights(other, 8); };
  const out = await s.generate({ prompt: [3, 1, 4], temperature: 0, maxTokens: 10 });
  // Token 0 comes from prefill, tokens 1..4 from decode steps 1..4; the swap lands before step 5.
  t.same(out.versions, [7, 7, 7, 7, 7, 8, 8, 8, 8, 8]);
  t.equal(out.version, 7);
  t.throws(() => s.setWeights(other, 8), { name: 'StaleWeightsError', code: 'SAMPLER_STALE_WEIGHTS' });
  try { s.setWeights(other, 3); } catch (err) { t.ok(isSamplerError(err), 'older version refused'); }
  const after = await s.generate({ prompt: [3, 1, 4], temperature: 0, maxTokens: 3 });
  t.same(after.versions, [8, 8, 8]);
  const fresh = new Sampler(session, other, 8);
  const ref = await fresh.generate({ prompt: [3, 1, 4], temperature: 0, maxTokens: 3 });
  t.same(after.tokens, ref.tokens, 'later requests sample from the new weights');
  t.same(after.logprobs, ref.logprobs);
  await s.close();
  await fresh.close();
  await session.release();
});
