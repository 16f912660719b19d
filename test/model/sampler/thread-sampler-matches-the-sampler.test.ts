// The sampler on its own thread gives what the Sampler gives on this one (same weights, seed and requests → same
// tokens, log-probs, versions and text), follows setWeights, cancels, and when its thread dies fails what it held
// with a typed error and restarts, with the newest weights, on the next request.
import t from 'tap';
import { validateDecoderConfig } from '../../../model/decoder.js';
import { isSamplerError } from '../../../model/sampler/errors.js';
import { ThreadSampler, isSamplerThreadError } from '../../../model/sampler/thread.js';
import { Sampler } from '../../../model/sampler/sampler.js';
import { ModelSession } from '../../../model/session.js';
import { LETTERS, TINY, tinyWeights } from './tiny.js';

const config = validateDecoderConfig(TINY);
const start = (version = 3) => ThreadSampler.start({ config, weights: tinyWeights(1), version, sampler: { seed: 5, stopTokens: [25] }, codec: LETTERS });

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

t.test('cancel, death and restart, close', async (t) => {
  const thread = await start();
  const ac = new AbortController();
  ac.abort();
  t.equal((await thread.generate({ prompt: [1, 2], maxTokens: 5, signal: ac.signal })).finishReason, 'cancelled', 'an aborted signal cancels');
  const ac2 = new AbortController();
  const onItsWay = thread.generate({ prompt: [1, 2], maxTokens: 40, temperature: 1, signal: ac2.signal });
  ac2.abort();
  t.equal((await onItsWay).finishReason, 'cancelled', 'an abort before the request reaches the thread cancels it');
  const ac3 = new AbortController();
  const running = thread.generate({ prompt: [1, 2], maxTokens: 40, temperature: 1, signal: ac3.signal });
  setImmediate(() => ac3.abort());
  const r = await running;
  t.ok(r.finishReason === 'cancelled' || r.tokens.length > 0, `an abort while it runs ends it (${r.finishReason} after ${r.tokens.length} tokens; it may finish first)`);

  const held = thread.generate({ prompt: [1, 2], maxTokens: 40 }).then(() => null, (e: unknown) => e);
  await thread.kill();
  const err = await held;
  t.ok(err === null || isSamplerThreadError(err), `a request the dead thread held: finished first, or a typed error (${String(err)})`);
  thread.setWeights(tinyWeights(2), 9); // while there is no thread
  const again = await thread.generate({ prompt: [3, 1, 4], temperature: 0, maxTokens: 3 });
  t.same(again.versions, [9, 9, 9], 'the next request restarted it with the newest weights');

  await thread.close();
  const closed = await thread.generate({ prompt: [1], maxTokens: 1 }).then(() => null, (e: unknown) => e);
  t.ok(isSamplerError(closed) && (closed as Error).name === 'SamplerClosedError', 'closed: SamplerClosedError');
});

t.test('bad requests and a thread that cannot start are typed', async (t) => {
  const thread = await start();
  t.teardown(() => thread.close());
  const bad = await thread.generate({ prompt: [1, 99], maxTokens: 2 }).then(() => null, (e: unknown) => e);
  t.ok(isSamplerThreadError(bad), String(bad));
  t.match((bad as Error).message, /token ids in \[0, 26\)/, 'the worker\'s reason comes through');
  const none = await ThreadSampler.start({ config: { ...config, width: 30 }, weights: tinyWeights(1), version: 0 }).then(() => null, (e: unknown) => e);
  t.ok(isSamplerThreadError(none), String(none));
  t.match((none as Error).message, /could not start/);
});
