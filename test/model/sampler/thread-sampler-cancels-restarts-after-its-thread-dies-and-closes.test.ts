// The sampler on its own thread cancels on an aborted signal, before or while the request runs; when its thread dies
// it fails what it held with a typed error and restarts, with the newest weights, on the next request; once closed it
// rejects with SamplerClosedError.
import t from 'tap';
import { isSamplerError } from '../../../model/sampler/errors.js';
import { isSamplerThreadError } from '../../../model/sampler/thread.js';
import { startThreadSampler as start, tinyWeights } from './tiny.js';

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
