// Cancelling a running or waiting request (or one whose signal is already aborted) resolves it as 'cancelled' with
// what it has, and the rest of the batch carries on unchanged.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { TINY, tinyWeights } from './tiny.js';

t.test('cancel running and waiting requests', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const w = tinyWeights(3);
  const solo = await new Sampler(session, w, 1).generate({ prompt: [2, 2], temperature: 0, maxTokens: 15 });
  const s = new Sampler(session, w, 1, null, { maxBatch: 2 });
  const running = new AbortController(), waiting = new AbortController();
  s.onStep = (step) => { if (step === 3) { running.abort(); waiting.abort(); } };
  const [a, b, c] = await Promise.all([
    s.generate({ prompt: [1, 2, 3], temperature: 1, maxTokens: 30, signal: running.signal }),
    s.generate({ prompt: [2, 2], temperature: 0, maxTokens: 15 }),
    s.generate({ prompt: [5], maxTokens: 5, signal: waiting.signal }), // maxBatch 2: still waiting at step 3
  ]);
  t.equal(a.finishReason, 'cancelled');
  t.equal(a.tokens.length, 4, 'prefill token + 3 decode steps');
  t.equal(c.finishReason, 'cancelled');
  t.same(c.tokens, []);
  t.equal(b.finishReason, 'length');
  t.same(b.tokens, solo.tokens, 'the surviving request is unaffected');
  const pre = new AbortController();
  pre.abort();
  t.equal((await s.generate({ prompt: [1], signal: pre.signal })).finishReason, 'cancelled');
  await s.close();
  await session.release();
});
