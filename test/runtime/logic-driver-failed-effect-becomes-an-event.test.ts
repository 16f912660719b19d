// runtime/logic-driver.ts: a failing effect skips the event's remaining effects, becomes the logic's `failed` event
// ahead of queued events, and rejects that event's send(); a failure of work off the mailbox arrives as an event too.
// A thrown non-Error is wrapped in a typed EffectError.
import t from 'tap';
import { isEffectError } from '../../runtime/errors.js';
import { runLogic } from '../../runtime/logic-driver.js';

type Ev = { type: 'go' } | { type: 'next' } | { type: 'slow' } | { type: 'failed'; error: Error };

t.test('a failing effect becomes a failed event and rejects its send', async (t) => {
  const seen: string[] = [];
  const errors: Error[] = [];
  const driver = runLogic<Ev, string>({
    transition: (e) => {
      seen.push(e.type === 'failed' ? `failed:${e.error.message}` : e.type);
      if (e.type === 'go') return ['boom', 'skipped'];
      if (e.type === 'slow') return ['work'];
      if (e.type === 'failed') return ['cleanup'];
      return [];
    },
    perform: (f, d) => {
      if (f === 'boom') return Promise.reject(new Error('disk full'));
      if (f === 'skipped') seen.push('skipped ran');
      if (f === 'cleanup') seen.push('cleanup');
      if (f === 'work') d.later(() => Promise.reject('not an error'));
    },
    failed: (error) => ({ type: 'failed', error }),
    onError: (err) => errors.push(err),
  });
  const go = driver.send({ type: 'go' });
  const next = driver.send({ type: 'next' });
  try {
    await go;
    t.fail('send should reject');
  } catch (err) {
    t.equal((err as Error).message, 'disk full', 'send rejects with the effect\'s error');
  }
  await next;
  t.same(seen, ['go', 'failed:disk full', 'cleanup', 'next'], 'the failure is handled before the queued event; later effects are skipped');

  await driver.send({ type: 'slow' });
  await driver.stop();
  t.same(seen.slice(-3), ['slow', 'failed:an effect failed: not an error', 'cleanup'], 'a failed later() arrives as an event');
  t.same(errors, [], 'nothing went unreported to the logic');

  const bare = runLogic<string, string>({ transition: () => ['x'], perform: (_f, d) => d.later(() => Promise.reject(7)), onError: (err) => errors.push(err) });
  await bare.send('e');
  await bare.stop();
  t.equal(errors.length, 1, 'without failed(), onError gets it');
  t.ok(isEffectError(errors[0]), 'a thrown non-Error is a typed EffectError');
});
