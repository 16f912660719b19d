// Cancelling a running or waiting request resolves it as 'cancelled' with what it has, and the rest of the batch
// carries on unchanged. Stop strings cut the text; stop tokens end the generation.
import t from 'tap';
import { ModelSession } from '../../../model/session.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { LETTERS, TINY, tinyWeights } from './tiny.js';

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

t.test('bad requests reject naming the field; close() rejects what is left', async (t) => {
  const session = await ModelSession.create(TINY, { graphs: ['sample'] });
  const s = new Sampler(session, tinyWeights(3), 1);
  const why = (p: Promise<unknown>): Promise<string> => p.then(() => 'resolved', (e: { name: string; field?: string }) => `${e.name}:${e.field ?? ''}`);
  t.equal(await why(s.generate({ prompt: [1], topP: 0 })), 'ModelOptionError:topP');
  t.equal(await why(s.generate({ prompt: [99] })), 'ModelOptionError:prompt');
  t.equal(await why(s.generate({ prompt: 'text' })), 'ModelOptionError:prompt', 'text needs a codec');
  const running = s.generate({ prompt: [1, 2], maxTokens: 40 });
  s.onStep = (step) => { if (step === 2) void s.close(); };
  t.equal(await why(running), 'SamplerClosedError:');
  t.equal(await why(s.generate({ prompt: [1] })), 'SamplerClosedError:');
  await session.release();
});
