// A request with stop strings ends ('stop') where one is completed, its text cut before it; a sampler's stop token
// ends a generation too, kept in the tokens and left out of the text.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { LETTERS, TINY, tinyWeights } from './tiny.js';

t.test('stop strings and stop tokens', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const w = tinyWeights(4);
  const s = new Sampler(session, w, 1, LETTERS);
  const full = await s.generate({ prompt: 'hello', temperature: 0, maxTokens: 12 });
  t.equal(full.text.length, 12);
  const stop = full.text.slice(4, 6);
  const cut = await s.generate({ prompt: 'hello', temperature: 0, maxTokens: 12, stop: [stop] });
  t.equal(cut.finishReason, 'stop');
  t.equal(cut.text, full.text.slice(0, full.text.indexOf(stop)));
  t.same(cut.tokens, full.tokens.slice(0, full.text.indexOf(stop) + 2), 'tokens run up to the one completing the stop string');
  const stopToken = full.tokens[3]!;
  const s2 = new Sampler(session, w, 1, LETTERS, { stopTokens: [stopToken] });
  const byToken = await s2.generate({ prompt: 'hello', temperature: 0, maxTokens: 12 });
  const at = full.tokens.indexOf(stopToken);
  t.equal(byToken.finishReason, 'stop');
  t.same(byToken.tokens, full.tokens.slice(0, at + 1), 'the stop token is kept in tokens');
  t.equal(byToken.text, full.text.slice(0, at), 'and left out of the text');
  await s.close();
  await s2.close();
  await session.release();
});
